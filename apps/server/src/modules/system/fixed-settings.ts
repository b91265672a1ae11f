// Settings that cannot change after the first start: the database's balances, deposits and users belong to them. Each
// start records the ones not recorded yet and compares the rest; a change is refused with the setting's name.
import type { Database } from '../../db/index.ts'

/** The settings fixed at the first start, by the environment variable that gives them. */
export const FIXED_SETTINGS = [
  'SOLANA_CLUSTER',
  'PRODUCT_SYMBOL',
  'PRODUCT_MINT',
  'USDT_MINT',
  'TREASURY_ADDRESS',
  'ROOT_ADDRESS',
] as const
export type FixedSetting = (typeof FIXED_SETTINGS)[number]

/** A start whose settings differ from those the database was set up with. */
export class FixedSettingsChanged extends Error {
  constructor(readonly changed: { name: FixedSetting; stored: string; now: string }[]) {
    super(
      'solpledge cannot start: settings fixed at the first start have changed (restore them, or start over with an ' +
        `empty database):\n${changed.map((c) => `  - ${c.name} is now ${c.now}, but this database was set up with ${c.stored}`).join('\n')}`,
    )
    this.name = 'FixedSettingsChanged'
  }
}

/**
 * Records each given setting the database has not recorded yet and refuses (FixedSettingsChanged, naming every one)
 * when a recorded one differs. Safe when several instances start at once: the first to record a value wins and the
 * others compare against it.
 */
export async function checkFixedSettings(db: Database, current: Partial<Record<FixedSetting, string>>) {
  const given = Object.entries(current).filter((entry): entry is [FixedSetting, string] => Boolean(entry[1]))
  if (given.length === 0) return
  await db
    .insertInto('fixed_settings')
    .values(given.map(([name, value]) => ({ name, value })))
    .onConflict((oc) => oc.column('name').doNothing())
    .execute()
  const stored = await db
    .selectFrom('fixed_settings')
    .select(['name', 'value'])
    .where(
      'name',
      'in',
      given.map(([name]) => name),
    )
    .execute()
  const changed = given.flatMap(([name, now]) => {
    const row = stored.find((s) => s.name === name)
    return row && row.value !== now ? [{ name, stored: row.value, now }] : []
  })
  if (changed.length > 0) throw new FixedSettingsChanged(changed)
}

/** Marks a one-time fact (e.g. 'demo_content'); true when this call marked it, false when it was marked before. */
export async function markOnce(db: Database, name: string): Promise<boolean> {
  const row = await db
    .insertInto('fixed_settings')
    .values({ name, value: 'done' })
    .onConflict((oc) => oc.column('name').doNothing())
    .returning('name')
    .executeTakeFirst()
  return row !== undefined
}
