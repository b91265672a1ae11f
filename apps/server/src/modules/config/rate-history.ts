// The products' output rates over time (docs/product.md#history), read from the business configuration's versions:
// every row of config_versions is a version that was applied (a scheduled change is inserted when its notice period
// ends: modules/admin), in force from its created_at until the next one.
import type { api, DataOf } from '@solpledge/contract'
import type { Database } from '../../db/index.ts'
import { storedVersion } from './service.ts'

type Product = DataOf<typeof api.rateHistory>['products'][number]

/**
 * Per staking period and finance term (by its days), the output rate from each version that changed it, oldest first;
 * null from a version that stopped offering it. Each version is read as the configuration in force then
 * (storedVersion: the fields it predates from the defaults, a broken one refused with its id).
 */
export async function rateHistory(db: Database): Promise<DataOf<typeof api.rateHistory>> {
  // A public read: every version is read and checked only when the versions changed (one more, or one rewritten by a
  // restore), not on every request.
  const mark = await db
    .selectFrom('config_versions')
    .select(({ fn }) => [fn.countAll<string>().as('n'), fn.max('id').as('id'), fn.max('created_at').as('at')])
    .executeTakeFirstOrThrow()
  const key = `${mark.n}:${mark.id}:${mark.at === null ? '' : new Date(mark.at).getTime()}`
  const known = computed.get(db)
  if (known?.key === key) return known.history
  const history = await readHistory(db)
  computed.set(db, { key, history })
  return history
}

const computed = new WeakMap<Database, { key: string; history: DataOf<typeof api.rateHistory> }>()

async function readHistory(db: Database): Promise<DataOf<typeof api.rateHistory>> {
  const versions = await db.selectFrom('config_versions').select(['id', 'value', 'created_at']).orderBy('id').execute()
  const products = new Map<string, Product>()
  for (const version of versions) {
    const config = storedVersion(version.id, version.value)
    const rates = new Map<string, { kind: Product['kind']; days: number; bps: number }>()
    for (const p of config.pledge.periods)
      rates.set(`stake:${p.days}`, { kind: 'stake', days: p.days, bps: p.outputBps })
    for (const f of config.finance) rates.set(`finance:${f.days}`, { kind: 'finance', days: f.days, bps: f.outputBps })
    const from = new Date(version.created_at).toISOString()
    for (const key of new Set([...products.keys(), ...rates.keys()])) {
      const rate = rates.get(key)
      let product = products.get(key)
      if (!product) {
        if (!rate) continue
        product = { kind: rate.kind, days: rate.days, changes: [] }
        products.set(key, product)
      }
      const bps = rate?.bps ?? null
      if (product.changes.at(-1)?.output_bps !== bps) product.changes.push({ from, output_bps: bps })
    }
  }
  return {
    products: [...products.values()].sort((a, b) =>
      a.kind === b.kind ? a.days - b.days : a.kind === 'stake' ? -1 : 1,
    ),
  }
}
