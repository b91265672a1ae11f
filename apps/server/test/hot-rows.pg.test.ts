// The rows every first login and every new position update — each ancestor's team figures in user_power, the root's
// among them — are the last thing their transaction writes (docs/scaling.md "What saturates first"): nothing runs
// between that statement and the COMMIT, so the lock is held for the statement and the COMMIT only, however busy the
// instance is. So are the system accounts a position pays into, after a keyed call's stored answer too, and the
// 'chain' account a paid intent's credit and a withdrawal's payout move. The ancestry statement also puts back the
// planner settings it ran without and returns the transaction's id for the commit-outcome check (db/transient.ts),
// which would otherwise be two more round trips with the rows locked. PostgreSQL only (a *.pg.test.ts file): the
// statements are watched at the database boundary (DbFaultHook).
import { api, Code, LOGIN_TYPE } from '@solpledge/contract'
import { PLG, USDT } from '@solpledge/test-fixtures'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type App, buildApp } from '../src/app.ts'
import { type Database, openDatabase } from '../src/db/index.ts'
import type { DbFaultHook } from '../src/db/transient.ts'
import { transact } from '../src/lib/commit.ts'
import { fulfilIntent } from '../src/modules/intents/service.ts'
import { bindMember } from '../src/modules/team/index.ts'
import { processWithdrawals } from '../src/modules/withdrawals/sender.ts'
import { call, createSeededApp, fundedMember, type SeededApp, TestWallet } from './helpers.ts'
import { type ChainApp, createChainApp, depositor } from './money.ts'

/**
 * A second handle on the database at `url` (an app built on it runs every statement through it); `statementsOf` gives
 * the statements `work` sends through it, from the first matching `from` to the COMMIT after it, and the first row
 * the last statement before that COMMIT answered.
 */
async function watchedDatabase(url: string) {
  let sent: string[] = []
  let answered: unknown[] = []
  let watching = false
  const faults: DbFaultHook = {
    async execute(statement, _state, run) {
      const result = await run()
      if (watching) {
        sent.push(statement.replace(/\s+/g, ' ').trim())
        answered.push((result as { rows?: unknown[] } | undefined)?.rows?.[0])
      }
      return result
    },
    commitStatus: async () => undefined,
  }
  const db = await openDatabase({ url, faults })
  const statementsOf = async (from: RegExp, work: () => Promise<unknown>) => {
    sent = []
    answered = []
    watching = true
    try {
      await work()
    } finally {
      watching = false
    }
    const start = sent.findIndex((s) => from.test(s))
    const end = sent.indexOf('commit', start)
    expect(start, sent.join('\n')).toBeGreaterThanOrEqual(0)
    expect(end, sent.join('\n')).toBeGreaterThan(start)
    return { statements: sent.slice(start, end + 1), last: answered[end - 1] as Record<string, unknown> | undefined }
  }
  return { db, statementsOf }
}
type Watched = Awaited<ReturnType<typeof watchedDatabase>>

describe('the hot rows last (postgres)', () => {
  let t: SeededApp
  let watched: Database
  let statementsOf: Watched['statementsOf']
  let app: App
  beforeAll(async () => {
    t = await createSeededApp()
    ;({ db: watched, statementsOf } = await watchedDatabase(t.url as string))
    app = await buildApp({ db: watched, config: t.app.config, platform: t.platform })
    await app.ready()
  })
  afterAll(async () => {
    await app.close()
    await watched.destroy()
    await t.close()
  })
  const ancestry = /^with recursive segment.*update user_power/

  it('a first login binds the member to its ancestors last, right before the COMMIT', async () => {
    const wallet = new TestWallet()
    const nonce = await call(app, api.nonce, { address: wallet.address })
    const message = (nonce.data as { message: string }).message
    const body = { type: LOGIN_TYPE, address: wallet.address, sign: wallet.sign(message), message }
    const { statements, last } = await statementsOf(/^update "login_nonces"/, async () =>
      expect((await call(app, api.registerThird, { ...body, invite_code: t.root.address })).code).toBe(Code.OK),
    )
    expect(statements.at(-2), statements.join('\n')).toMatch(ancestry)
    expect(statements.filter((s) => /insert into "sessions"/.test(s))).toHaveLength(1)
    // The transaction's id came with it: the COMMIT needs no statement of its own to learn it.
    expect(last?.commit_xid).toMatch(/^\d+$/)
    const team = await t.db.selectFrom('user_power').select('team_count').where('user_id', '=', t.root.id).execute()
    expect(Number(team[0]?.team_count)).toBeGreaterThan(0)
  })

  it("a stake pays into the pledge account, then moves its ancestors' power, right before the COMMIT", async () => {
    const u = await fundedMember({ app, db: watched }, t.root.address, { PLG: 500n * PLG })
    const { statements, last } = await statementsOf(/^insert into "stakes"/, async () =>
      expect((await call(app, api.pledgeStake, { amount: String(250n * PLG), days: 30 }, u.auth)).code).toBe(Code.OK),
    )
    // The payment into the pledge account, the other row every stake updates, right before.
    expect(statements.slice(-3, -1), statements.join('\n')).toEqual([
      expect.stringMatching(/^select \* from ledger_transfer/),
      expect.stringMatching(ancestry),
    ])
    expect(last?.commit_xid).toMatch(/^\d+$/)
  })

  it("with an Idempotency-Key the stake's answer is stored first: the payment and the ancestry stay last", async () => {
    const u = await fundedMember({ app, db: watched }, t.root.address, { PLG: 500n * PLG })
    const headers = { 'idempotency-key': `hot-rows-${u.id}` }
    const { statements } = await statementsOf(/^insert into "stakes"/, async () =>
      expect(
        (await call(app, api.pledgeStake, { amount: String(250n * PLG), days: 30 }, { ...u.auth, headers })).code,
      ).toBe(Code.OK),
    )
    // The answer before the payment's part (its planner settings first), the payment and the ancestry last.
    const answer = statements.findIndex((s) => /^update "idempotency_keys"/.test(s))
    const payment = statements.findIndex((s) => /^select current_setting.*set_config/.test(s))
    expect(answer, statements.join('\n')).toBeGreaterThan(0)
    expect(payment, statements.join('\n')).toBeGreaterThan(answer)
    expect(statements.slice(-3, -1), statements.join('\n')).toEqual([
      expect.stringMatching(/^select \* from ledger_transfer/),
      expect.stringMatching(ancestry),
    ])
  })

  it("a stake paid on chain: the deposit's credit, the stake's payment and the ancestry are the last three writes", async () => {
    const u = await fundedMember({ app, db: watched }, t.root.address)
    // The intent as it was made (its terms fixed then); this chain-less app cannot take a top-up of PLG through the
    // route, and what is watched here is the fulfilment's transaction.
    const intent = await t.db
      .insertInto('payment_intents')
      .values({
        user_id: u.id,
        purpose: 'stake',
        asset: 'PLG',
        amount: String(250n * PLG),
        recipient: 'treasury',
        reference: `hot-rows-${u.id}`,
        expires_at: new Date(Date.now() + 60_000),
        details: JSON.stringify({ days: 30, price: '500000', output_bps: 12000, power_bps: 10000 }),
      })
      .returningAll()
      .executeTakeFirstOrThrow()
    const { statements } = await statementsOf(/^update "payment_intents" set "status"/, () =>
      fulfilIntent(transact(watched), intent, `hot-rows-${intent.id}`, async (_trx, done) => expect(done).toBe(true)),
    )
    expect(statements.slice(-5, -1), statements.join('\n')).toEqual([
      expect.stringMatching(/^select \* from ledger_transfer/),
      expect.stringMatching(/^select current_setting.*set_config/),
      expect.stringMatching(/^select \* from ledger_transfer/),
      expect.stringMatching(ancestry),
    ])
    expect(statements.filter((s) => /^update "payment_intents" set "outcome"/.test(s))).toHaveLength(1)
    const stake = await t.db
      .selectFrom('stakes')
      .select('amount')
      .where('intent_id', '=', intent.id)
      .executeTakeFirstOrThrow()
    expect(stake.amount).toBe(String(250n * PLG))
  })

  it('the statements after the ancestry update in the same transaction plan with every plan kind again', async () => {
    const u = await fundedMember({ app, db: watched }, t.root.address)
    const settings = await watched
      .transaction()
      .execute(async (trx) => {
        await bindMember(trx, u.id)
        const { rows } = await sql<{ seqscan: string; bitmapscan: string }>`
        select current_setting('enable_seqscan') as seqscan, current_setting('enable_bitmapscan') as bitmapscan`.execute(
          trx,
        )
        throw Object.assign(new Error('roll back'), { settings: rows[0] })
      })
      .catch((error: { settings?: unknown }) => error.settings)
    expect(settings).toEqual({ seqscan: 'on', bitmapscan: 'on' })
  })
})

describe("a withdrawal's settlement holds the 'chain' account for its two transfers only (postgres)", () => {
  let ctx: ChainApp
  let watched: Watched
  beforeAll(async () => {
    ctx = await createChainApp()
    watched = await watchedDatabase(ctx.url as string)
  }, 120_000)
  afterAll(async () => {
    await watched.db.destroy()
    await ctx.close()
  })

  it('the accounts are found first; the payout, then the fee, then the COMMIT', async () => {
    const user = await depositor(ctx, 50n * USDT)
    const res = await call(ctx.app, api.withdraw, { coin: 'USDT', amount: String(20n * USDT) }, user.auth)
    expect(res.code, res.msg).toBe(Code.OK)
    const id = (res.data as { id: string }).id
    const status = async () =>
      (await ctx.db.selectFrom('withdrawals').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status
    // Sent by the app's own database handle, settled through the watched one once the chain has it.
    await processWithdrawals(ctx.db, ctx.platform)
    expect(await status()).toBe('sent')
    const { statements: settle } = await watched.statementsOf(/^update "withdrawals" set "status"/, async () => {
      for (let pass = 0; pass < 200 && (await status()) === 'sent'; pass++)
        await processWithdrawals(watched.db, ctx.platform)
    })
    expect(await status()).toBe('confirmed')
    expect(settle.slice(-3), settle.join('\n')).toEqual([
      expect.stringMatching(/^select \* from ledger_transfer/),
      expect.stringMatching(/^select \* from ledger_transfer/),
      'commit',
    ])
    expect(settle.filter((s) => /from "ledger_accounts"/.test(s)).length, settle.join('\n')).toBeGreaterThanOrEqual(3)
  }, 60_000)
})
