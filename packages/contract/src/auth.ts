import { type Static, Type } from 'typebox'
import { Address, Empty, type RouteDef, route } from './common.ts'
import { MultilineText, Text } from './fields.ts'

// Sign-in with a wallet: is it registered, the message to sign, the login (docs/product.md#login).

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

/**
 * The Sign-In-With-Solana input the server's message is made of, as the Wallet Standard's `solana:signIn` takes it: a
 * wallet that offers the feature builds the same text from it (with the address it signs in with, when none is given).
 */
export const SignInInput = Type.Object({
  domain: Type.String(),
  address: Type.Optional(Type.String({ description: 'Absent when the nonce was asked for without an address' })),
  statement: Type.String(),
  version: Type.String(),
  chainId: Type.String(),
  nonce: Type.String(),
  issuedAt: Type.String({ format: 'date-time' }),
  expirationTime: Type.String({ format: 'date-time' }),
})
export type SignInInput = Static<typeof SignInInput>

export const authRoutes = {
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
    summary:
      'A single-use Sign-In-With-Solana message for the address to sign (expires in 5 minutes). Without an address, ' +
      "a wallet's signIn feature fills in the one it signs in with: the message is then this text with that address",
    body: Type.Object({ address: Type.Optional(Address) }, { additionalProperties: false }),
    data: Type.Object({
      message: Type.String({ description: 'The exact text to sign (with an empty address line when none was given)' }),
      nonce: Type.String(),
      expires_at: Type.String({ format: 'date-time' }),
      sign_in: SignInInput,
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
        sign: Text({ minLength: 1, maxLength: 256, description: 'Hex of the ed25519 signature of message' }),
        invite_code: Type.Optional(Text({ maxLength: 64, description: "The inviter's wallet address" })),
        message: MultilineText({
          minLength: 1,
          maxLength: 2048,
          description: 'The text returned by /user/login/nonce (with the address filled in, for a nonce without one)',
        }),
        end_other_sessions: Type.Optional(
          Type.Boolean({ description: 'Sign out everywhere else: every other live session of this wallet ends' }),
        ),
      },
      { additionalProperties: false },
    ),
    data: LoginData,
  }),
  logout: route({
    path: '/user/login/logout',
    auth: true,
    tag: 'auth',
    summary:
      "Ends the caller's session: its token is refused from now on (by other server instances within SESSION_CACHE_MS)",
    body: Empty,
    data: Type.Object({}),
  }),
} as const satisfies Record<string, RouteDef>
