import { createSignInMessageText, parseSignInMessageText } from '@solana/wallet-standard-util'
import { Code, type LoginData, type SignInInput } from '@solpledge/contract'
import { sql, type Transaction } from 'kysely'
import type { Database } from '../../db/index.ts'
import type { DB } from '../../db/schema.ts'
import { AppError, invalid, refuse } from '../../lib/app-error.ts'
import { lastWrite, transact } from '../../lib/commit.ts'
import { bindMember } from '../team/index.ts'
import { findUserByAddress } from '../user/index.ts'
import { isWalletAddress, newNonce, parseHexSignature, verifyWalletSignature } from './crypto.ts'
import { createSession, revokeOtherSessions } from './session.ts'

/** How long a sign-in message may be used (at most 5 minutes: docs/product.md#constants-and-timings). */
export const NONCE_TTL_MS = 5 * 60_000
export const SIGN_IN_STATEMENT = 'Sign in to solpledge'

export interface LoginSettings {
  /** Sign-in domains people open the app at (host[:port]); the first is the default. */
  domains: string[]
  /** SIWS chain id of the cluster: mainnet, devnet, testnet or localnet. */
  chainId: string
  sessionTtlHours: number
  /** The clock sessions are opened by, in ms since the epoch (default Date.now; tests move it). */
  now?: () => number
}

function requireAddress(address: string) {
  if (!isWalletAddress(address)) throw invalid('auth.invalidAddress')
}

export async function isRegistered(db: Database, address: string): Promise<0 | 1> {
  requireAddress(address)
  const row = await db.selectFrom('users').select('id').where('address', '=', address).executeTakeFirst()
  return row ? 1 : 0
}

/**
 * Issues a single-use Sign-In-With-Solana message for `address` naming `requestedDomain` when it is allowed. The
 * statement says what the signature opens: the app (default) or the operator console. Without an address (a wallet's
 * signIn connects and signs in one prompt, and names the account it signs in with) the stored text has an empty
 * address line, and any address may fill it in, once.
 */
export async function issueNonce(
  db: Database,
  settings: LoginSettings,
  address: string | undefined,
  requestedDomain?: string,
  statement = SIGN_IN_STATEMENT,
) {
  if (address !== undefined) requireAddress(address)
  const domain =
    requestedDomain && settings.domains.includes(requestedDomain) ? requestedDomain : (settings.domains[0] as string)
  const nonce = newNonce()
  const issuedAt = new Date()
  const expiresAt = new Date(issuedAt.getTime() + NONCE_TTL_MS)
  const input: SignInInput = {
    domain,
    ...(address === undefined ? {} : { address }),
    statement,
    version: '1',
    chainId: settings.chainId,
    nonce,
    issuedAt: issuedAt.toISOString(),
    expirationTime: expiresAt.toISOString(),
  }
  const message = createSignInMessageText({ ...input, address: address ?? '' })
  await db
    .insertInto('login_nonces')
    .values({ nonce, address: address ?? null, domain, message, expires_at: expiresAt })
    .execute()
  return { message, nonce, expires_at: expiresAt.toISOString(), sign_in: input }
}

export interface LoginInput {
  address: string
  sign: string
  message: string
  invite_code?: string | undefined
  /** Sign out everywhere else: the wallet's other live sessions end. */
  end_other_sessions?: boolean | undefined
}

/**
 * Checks a signed sign-in message and spends its nonce: the signature must be the address's over a message this server
 * issued for that address, an allowed domain and `statement`, unexpired and unused. Shared by the app's login and the
 * operator console's.
 */
export async function verifySignIn(
  db: Database,
  settings: LoginSettings,
  input: { address: string; sign: string; message: string },
  statement = SIGN_IN_STATEMENT,
): Promise<void> {
  requireAddress(input.address)
  const signature = parseHexSignature(input.sign)
  if (!signature) throw invalid('auth.invalidSignatureFormat')
  const parsed = parseSignInMessageText(input.message)
  if (!parsed?.nonce) throw invalid('auth.invalidMessage')
  if (parsed.address !== input.address || !settings.domains.includes(parsed.domain) || parsed.statement !== statement)
    throw refuse('auth.messageMismatch')
  if (!verifyWalletSignature(input.address, input.message, signature)) throw refuse('auth.invalidSignature')

  // A message issued without an address is the issued text with this address filled in, and nothing else changed:
  // written out again from its fields it is the same text, and without the address it is the stored one.
  const filledIn =
    createSignInMessageText(parsed) === input.message ? createSignInMessageText({ ...parsed, address: '' }) : null
  // Single use: the nonce is spent by the first valid signature, whatever happens next.
  const spent = await db
    .updateTable('login_nonces')
    .set({ used_at: sql`now()` })
    .where('nonce', '=', parsed.nonce)
    .where((eb) =>
      eb.or([
        eb.and([eb('address', '=', input.address), eb('message', '=', input.message)]),
        ...(filledIn === null ? [] : [eb.and([eb('address', 'is', null), eb('message', '=', filledIn)])]),
      ]),
    )
    .where('used_at', 'is', null)
    .where('expires_at', '>', new Date())
    .executeTakeFirst()
  if (spent.numUpdatedRows !== 1n) throw refuse('auth.nonceExpired')
}

/**
 * Logs a wallet in (docs/product.md#login, with a server nonce checked by verifySignIn). A new address binds to its
 * inviter for good; code 2 means it cannot be bound. With `end_other_sessions` the wallet's other sessions end in the
 * same transaction (the caller forgets them from its session cache).
 *
 * One transaction: the nonce spent, the new member bound and the session opened commit together, so a login cut off by
 * a lost database connection before its COMMIT left nothing behind and runs again (db/transient.ts), where a nonce
 * spent on its own would have made it fail. A binding refused still spends the nonce: the refusal is thrown once the
 * transaction has committed.
 */
export async function login(db: Database, settings: LoginSettings, input: LoginInput): Promise<LoginData> {
  const now = (settings.now ?? Date.now)()
  const outcome = await transact(db)(async (trx) => {
    await verifySignIn(trx, settings, input)
    let user = await findUserByAddress(trx, input.address)
    if (!user) {
      const refusal = await bindNewMember(trx, input)
      if (refusal) return { refusal }
      user = await findUserByAddress(trx, input.address)
      if (!user) throw new Error('user vanished after insert')
    }
    const session = await createSession(trx, user.id, user.address, settings.sessionTtlHours, now)
    if (input.end_other_sessions) await revokeOtherSessions(trx, user.id, session.id, now)
    return { user, session }
  })
  if ('refusal' in outcome) throw outcome.refusal
  const { user, session } = outcome
  return { ...user, token: session.token, expires_at: session.expiresAt.toISOString() }
}

/**
 * Binds a new address to the inviter its invite code names, for good, or says why it cannot be bound. A concurrent
 * first login of the same address keeps whichever parent landed first. The new member counts in its ancestors' team
 * figures in the same transaction (modules/team), as its last write: those rows, the root's among them, which every
 * first login and every stake update, are held for that statement and the COMMIT only (lib/commit.ts lastWrite,
 * docs/scaling.md "What saturates first").
 */
async function bindNewMember(trx: Transaction<DB>, input: LoginInput): Promise<AppError | undefined> {
  const inviteCode = input.invite_code?.trim() ?? ''
  if (!inviteCode) return new AppError(Code.NOT_BOUND, 'auth.notBound')
  if (inviteCode === input.address) return new AppError(Code.NOT_BOUND, 'auth.selfInvite')
  const inviter = isWalletAddress(inviteCode)
    ? await trx.selectFrom('users').select('id').where('address', '=', inviteCode).executeTakeFirst()
    : undefined
  if (!inviter) return new AppError(Code.NOT_BOUND, 'auth.unknownInviter')
  const bound = await trx
    .insertInto('users')
    .values({ address: input.address, parent_id: inviter.id })
    .onConflict((oc) => oc.column('address').doNothing())
    .returning('id')
    .executeTakeFirst()
  if (bound) await lastWrite(trx, () => bindMember(trx, bound.id))
  return undefined
}

/** Deletes sign-in messages that expired over an hour ago. */
export async function purgeExpiredNonces(db: Database) {
  await db
    .deleteFrom('login_nonces')
    .where('expires_at', '<', new Date(Date.now() - 3_600_000))
    .execute()
}
