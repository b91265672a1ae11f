// Releasing a settlement day the circuit breaker holds (docs/settlement.md, "Circuit breaker"): money the platform pays
// out, so once two admins exist it waits for a second one (changes.ts); then the run goes on at its next pass and the
// days after it follow in order.
import { sql } from 'kysely'
import { invalid, refuse } from '../../lib/app-error.ts'
import { isDay } from '../../lib/day.ts'
import { audit } from './audit.ts'
import type { ChangeKind } from './changes.ts'

type HeldState = { status: string; held_at: string | null }

export const releaseDay: ChangeKind<{ day: string }, HeldState> = {
  kind: 'settlement.release',
  target: ({ day }) => `settlement:${day}`,
  async state(trx, _caller, { day }, proposing) {
    if (!isDay(day)) throw invalid('error.invalidParams', { detail: 'day' })
    const run = await trx
      .selectFrom('settlement_runs')
      .select(['status', sql<string | null>`summary -> 'hold' ->> 'at'`.as('held_at')])
      .where('day', '=', day)
      .forUpdate()
      .executeTakeFirst()
    if (proposing && run?.status !== 'held') throw refuse('settlement.notHeld', { day })
    return { status: run?.status ?? 'none', held_at: run?.held_at ?? null }
  },
  // Paying a held day is money leaving by an admin's decision: always a second admin once two exist.
  weakens: () => true,
  view: (state) => ({ before: { status: state.status }, after: { status: 'running' } }),
  async apply(trx, caller, { day }, _state, approval) {
    const released = JSON.stringify({ by: caller.address, at: new Date().toISOString(), ...approval })
    const run = await trx
      .updateTable('settlement_runs')
      .set({
        status: 'running',
        summary: sql`jsonb_set(summary, '{hold,released}', ${released}::jsonb)`,
        updated_at: sql`now()`,
      })
      .where('day', '=', day)
      .where('status', '=', 'held')
      .returning(sql<unknown>`summary -> 'hold' -> 'reasons'`.as('reasons'))
      .executeTakeFirstOrThrow()
    await audit(trx, caller, 'settlement.release', `settlement:${day}`, { reasons: run.reasons, ...approval })
  },
}
