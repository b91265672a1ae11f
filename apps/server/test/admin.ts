import { type AdminLoginData, type AdminRole, API_BASE, api, type Envelope, UPLOAD_FIELD } from '@solpledge/contract'
import type { App } from '../src/app.ts'
import type { Database } from '../src/db/index.ts'
import { call, TestWallet } from './helpers.ts'

/** An operator signed in to the console: their wallet, role and the headers of their session. */
export interface TestAdmin {
  wallet: TestWallet
  address: string
  role: AdminRole
  token: string
  headers: { headers: Record<string, string> }
}

/** Puts a wallet on the allow-list, as an admin does in the console. */
export async function allowAdmin(db: Database, role: AdminRole, wallet = new TestWallet()): Promise<TestWallet> {
  await db.insertInto('admins').values({ address: wallet.address, role, source: 'console', added_by: 'test' }).execute()
  return wallet
}

/** The console's sign-in: nonce, signature, login. Returns the envelope of the login call. */
export async function adminSignIn(app: App, wallet: TestWallet) {
  const nonce = await call(app, api.adminNonce, { address: wallet.address })
  const message = (nonce.data as { message: string } | null)?.message ?? ''
  return call(app, api.adminLogin, { address: wallet.address, sign: wallet.sign(message), message })
}

/** A new operator of `role`, allow-listed and signed in. */
export async function signedInAdmin(app: App, db: Database, role: AdminRole): Promise<TestAdmin> {
  const wallet = await allowAdmin(db, role)
  const res = await adminSignIn(app, wallet)
  const { token } = res.data as AdminLoginData
  if (!token) throw new Error(`admin sign-in failed: ${res.msg}`)
  return { wallet, address: wallet.address, role, token, headers: { headers: { 'admin-token': token } } }
}

/** How many audit entries there are (of an action, when given). */
/**
 * USDT withdrawals open for the console's tests: a mint (never paid here: the sender does not run), a 10 USDT minimum,
 * a 1 USDT fee, review from 100 USDT, and two reviewers from `dualReviewFrom` (base units) when given.
 */
export async function reviewedUsdtWithdrawals(db: Database, dualReviewFrom?: bigint) {
  const usdt = 10n ** 6n
  await db
    .updateTable('assets')
    .set({
      mint: new TestWallet().address,
      withdraw_enabled: true,
      min_atm_money: (10n * usdt).toString(),
      withdraw_fee: usdt.toString(),
      review_threshold: (100n * usdt).toString(),
      ...(dualReviewFrom === undefined ? {} : { dual_review_threshold: dualReviewFrom.toString() }),
    })
    .where('code', '=', 'USDT')
    .execute()
}

export async function auditCount(db: Database, action?: string): Promise<number> {
  const row = await db
    .selectFrom('admin_audit')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .$if(action !== undefined, (qb) => qb.where('action', '=', action as string))
    .executeTakeFirstOrThrow()
  return Number(row.n)
}

/** A multipart/form-data body with one file, as the browser's FormData sends it. */
export function multipartBody(field: string, filename: string, contentType: string, bytes: Buffer) {
  const boundary = `----solpledge${Math.random().toString(16).slice(2)}`
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: ${contentType}\r\n\r\n`
  return {
    payload: Buffer.concat([Buffer.from(head), bytes, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    contentType: `multipart/form-data; boundary=${boundary}`,
  }
}

/** A small valid PNG (1×1 pixel). */
export const PNG_1PX = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
)

/** Uploads a file to the console's upload route through app.inject; returns the envelope. */
export async function upload(
  app: App,
  headers: Record<string, string>,
  file: { field?: string; name: string; type: string; bytes: Buffer },
) {
  const body = multipartBody(file.field ?? UPLOAD_FIELD, file.name, file.type, file.bytes)
  const res = await app.inject({
    method: 'POST',
    url: API_BASE + api.adminUpload.path,
    payload: body.payload,
    headers: { 'content-type': body.contentType, 'accept-language': 'en', ...headers },
  })
  return { ...(res.json() as Envelope), status: res.statusCode }
}
