// Planner settings for one transaction: the set-based statements that must stay proportional to their batch (the
// settlement's credits, a power change along a long ancestry) turn some of PostgreSQL's plan kinds off around them.
import { type RawBuilder, sql, type Transaction } from 'kysely'
import type { DB } from './schema.ts'

/** Puts back the settings planWithout turned off. */
export interface Restore {
  (): Promise<void>
  /**
   * The same as an expression for the select list of the statement planned without them, instead of a statement of
   * its own: a statement is planned before it runs, so the settings are back for the statements after it, one round
   * trip fewer (while that statement's row locks are held: docs/scaling.md "What saturates first").
   */
  inline: RawBuilder<unknown>
}

/**
 * Turns the planner's `enable_<name>` settings off for the rest of the transaction; the function it returns puts back
 * the values they had.
 */
export async function planWithout(trx: Transaction<DB>, names: string[]): Promise<Restore> {
  const settings = names.map((name) => `enable_${name}`)
  const { rows } = await sql<Record<string, string>>`
    select ${sql.join(settings.map((s) => sql`current_setting(${s}) as ${sql.ref(s)}`))},
      ${sql.join(settings.map((s) => sql`set_config(${s}, 'off', true)`))}`.execute(trx)
  const before = rows[0] ?? {}
  const inline = sql`concat(${sql.join(settings.map((s) => sql`set_config(${s}, ${before[s] ?? 'on'}, true)`))})`
  return Object.assign(
    async () => {
      await sql`select ${inline}`.execute(trx)
    },
    { inline },
  )
}
