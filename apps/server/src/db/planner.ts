// Planner settings for one transaction: the set-based statements that must stay proportional to their batch (the
// settlement's credits, a power change along a long ancestry) turn some of PostgreSQL's plan kinds off around them.
import { sql, type Transaction } from 'kysely'
import type { DB } from './schema.ts'

/**
 * Turns the planner's `enable_<name>` settings off for the rest of the transaction; the function it returns puts back
 * the values they had.
 */
export async function planWithout(trx: Transaction<DB>, names: string[]): Promise<() => Promise<void>> {
  const settings = names.map((name) => `enable_${name}`)
  const { rows } = await sql<Record<string, string>>`
    select ${sql.join(settings.map((s) => sql`current_setting(${s}) as ${sql.ref(s)}`))},
      ${sql.join(settings.map((s) => sql`set_config(${s}, 'off', true)`))}`.execute(trx)
  const before = rows[0] ?? {}
  return async () => {
    await sql`select ${sql.join(settings.map((s) => sql`set_config(${s}, ${before[s] ?? 'on'}, true)`))}`.execute(trx)
  }
}
