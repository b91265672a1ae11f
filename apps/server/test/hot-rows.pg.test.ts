// The rows every first login and every new position update — each ancestor's team figures in user_power, the root's
// among them — are the last thing their transaction writes (docs/scaling.md "What saturates first"): nothing runs
// between that statement and the COMMIT, so the lock is held for the statement and the COMMIT only, however busy the
// instance is. The statement also puts back the planner settings it ran without and returns the transaction's id for
// the commit-outcome check (db/transient.ts), which would otherwise be two more round trips with the rows locked.
// PostgreSQL only (a *.pg.test.ts file): the statements are watched at the database boundary (DbFaultHook).
import { api, Code, LOGIN_TYPE } from '@solpledge/contract'
import { PLG } from '@solpledge/test-fixtures'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type App, buildApp } from '../src/app.ts'
import { type Database, openDatabase } from '../src/db/index.ts'
import type { DbFaultHook } from '../src/db/transient.ts'
import { bindMember } from '../src/modules/team/index.ts'
import { call, createSeededApp, fundedMember, type SeededApp, TestWallet } from './helpers.ts'

describe('the hot rows last (postgres)', () => {
  let t: SeededApp
  let watched: Database
  let app: App
  /** The statements sent through `watched`, in order, while `watching`, and the first row each answered. */
  let sent: string[] = []
  let answered: unknown[] = []
  let watching = false
  beforeAll(async () => {
    t = await createSeededApp()
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
    watched = await openDatabase({ url: t.url as string, faults })
    app = await buildApp({ db: watched, config: t.app.config, platform: t.platform })
    await app.ready()
  })
  afterAll(async () => {
    await app.close()
    await watched.destroy()
    await t.close()
  })

  /** The statements `work` sends, from the first after `from` (a pattern) to the COMMIT. */
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
