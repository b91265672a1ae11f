import { type Static, type TSchema, Type } from 'typebox'

/** Every API path is POST under this base (SPEC §7). Paths match case-insensitively. */
export const API_BASE = '/api'
/** The app-key header value the web app sends on every request (SPEC §7). Informational: it is public. */
export const APP_KEY = 'solpledge-web'
/** Login type value (SPEC §9). */
export const LOGIN_TYPE = '3'
/** Largest JSON body the API accepts. */
export const MAX_BODY_BYTES = 64 * 1024

export interface RouteDef<B extends TSchema = TSchema, D extends TSchema = TSchema, A extends boolean = boolean> {
  /** Path below API_BASE, spelled as the spec spells it. */
  path: string
  /** True when the call needs a session (User-Token and User-Address headers). */
  auth: A
  summary: string
  tag: string
  body: B
  data: D
}
const route = <B extends TSchema, D extends TSchema, const A extends boolean>(def: RouteDef<B, D, A>) => def

export type BodyOf<R extends RouteDef> = Static<R['body']>
export type DataOf<R extends RouteDef> = Static<R['data']>

/** A base58 wallet address; decoded and checked for 32 bytes by the server. */
export const Address = Type.String({ minLength: 1, maxLength: 64, description: 'Solana wallet address (base58)' })

export const User = Type.Object({
  id: Type.String({ description: 'User id' }),
  address: Type.String(),
  parent_address: Type.Union([Type.String(), Type.Null()], { description: 'Referrer wallet address' }),
  invite_code: Type.String({ description: "The user's own invite code: their wallet address" }),
  created_at: Type.String({ format: 'date-time' }),
})
export type User = Static<typeof User>

export const LoginData = Type.Object({
  ...User.properties,
  token: Type.String({ description: 'Session token: send it as the User-Token header' }),
  expires_at: Type.String({ format: 'date-time' }),
})
export type LoginData = Static<typeof LoginData>

const Empty = Type.Object({}, { additionalProperties: false })

export const api = {
  isReg: route({
    path: '/user/login/is_reg',
    auth: false,
    tag: 'auth',
    summary: 'Whether a wallet address is registered (bound to a referrer)',
    body: Type.Object({ address: Address }, { additionalProperties: false }),
    data: Type.Object({ is_reg: Type.Union([Type.Literal(0), Type.Literal(1)]) }),
  }),
  nonce: route({
    path: '/user/login/nonce',
    auth: false,
    tag: 'auth',
    summary: 'A single-use Sign-In-With-Solana message for the address to sign (expires in 5 minutes)',
    body: Type.Object({ address: Address }, { additionalProperties: false }),
    data: Type.Object({
      message: Type.String({ description: 'The exact text to sign' }),
      nonce: Type.String(),
      expires_at: Type.String({ format: 'date-time' }),
    }),
  }),
  registerThird: route({
    path: '/user/login/registerThird',
    auth: false,
    tag: 'auth',
    summary: 'Log in with a signed sign-in message; binds to the inviter on first login',
    body: Type.Object(
      {
        type: Type.Literal('3'),
        address: Address,
        sign: Type.String({ minLength: 1, maxLength: 256, description: 'Hex of the ed25519 signature of message' }),
        invite_code: Type.Optional(Type.String({ maxLength: 64, description: "The inviter's wallet address" })),
        message: Type.String({ minLength: 1, maxLength: 2048, description: 'The text returned by /user/login/nonce' }),
      },
      { additionalProperties: false },
    ),
    data: LoginData,
  }),
  userIndex: route({
    path: '/user/user/index',
    auth: true,
    tag: 'user',
    summary: "The logged-in user's info",
    body: Empty,
    data: User,
  }),
} as const satisfies Record<string, RouteDef>

export type Api = typeof api

/** Runtime configuration the server hands to the web app (GET /api/config). */
export const ClientConfig = Type.Object({
  cluster: Type.String({ description: 'mainnet-beta, devnet, testnet or localnet' }),
  testnet: Type.Boolean(),
  rpcUrl: Type.String(),
  wsUrl: Type.String(),
  demoWallet: Type.Boolean({ description: 'True on the local chain: the demo wallet is injected' }),
  productSymbol: Type.String(),
})
export type ClientConfig = Static<typeof ClientConfig>
