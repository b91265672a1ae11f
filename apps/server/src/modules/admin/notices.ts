// What users are told of the admins' changes of what the platform pays or takes (docs/economics.md): every change of
// the business configuration or of an asset's settings that raises payouts is announced when it is decided and applies
// at the end of its notice period. The app lists them (/news/news/changes); a push channel may carry them later.
import {
  type api,
  CONFIG_AMOUNTS,
  CONFIG_RATES,
  type DataOf,
  type EconomicItem,
  economicItems,
  parseAmount,
} from '@solpledge/contract'
import { sql } from 'kysely'
import type { Database } from '../../db/index.ts'
import { QUOTE } from '../config/index.ts'

type Notice = DataOf<typeof api.economicNotices>['list'][number]
type Unit = Notice['items'][number]['unit']

/** How long a change stays listed after it took effect. */
const LISTED_AFTER_DAYS = 7

/** Stored asset settings (base units) and what an asset change proposed (the asset's units). */
type AssetBefore = Record<string, string | boolean | null> & { decimals: number }

/** The asset change's proposal in base units (it was accepted in this form when it was proposed). */
function proposedSettings(payload: Record<string, unknown>, decimals: number) {
  const { coin: _c, base_version: _b, ...settings } = payload
  return Object.fromEntries(
    Object.entries(settings).map(([key, value]) => {
      if (typeof value !== 'string') return [key, value]
      const parsed = parseAmount(value, decimals)
      return [key, parsed.ok ? parsed.value.toString() : value]
    }),
  )
}

/**
 * The announced changes: scheduled ones by the time they apply, then those applied in the last 7 days, newest first;
 * each item with how to show it (an amount of a coin, a rate, a number or a flag).
 */
export async function economicNotices(db: Database, product: string): Promise<{ list: Notice[] }> {
  const [rows, assets] = await Promise.all([
    db
      .selectFrom('admin_changes')
      .select(['id', 'kind', 'target', 'payload', 'before', 'status', 'effective_at'])
      .where('raises_payouts', '=', true)
      .where('kind', 'in', ['config.save', 'asset.save'])
      .where((eb) =>
        eb.or([
          eb('status', '=', 'scheduled'),
          eb.and([
            eb('status', '=', 'applied'),
            eb('effective_at', '>', sql<Date>`now() - make_interval(days => ${LISTED_AFTER_DAYS})`),
          ]),
        ]),
      )
      .orderBy(sql`status = 'scheduled'`, 'desc')
      .orderBy('effective_at')
      .execute(),
    db.selectFrom('assets').select(['code', 'decimals']).execute(),
  ])
  const decimalsOf = (code: string) => assets.find((a) => a.code === code)?.decimals ?? 0
  const configUnit = (field: string, value: unknown): Unit => {
    const asset = CONFIG_AMOUNTS[field]
    if (asset) {
      const coin = asset === 'usdt' ? QUOTE : product
      return { kind: 'amount', coin, decimals: decimalsOf(coin) }
    }
    if (CONFIG_RATES.has(field)) return { kind: 'rate' }
    return { kind: typeof value === 'boolean' ? 'flag' : 'number' }
  }
  const list = rows.map((row): Notice => {
    let items: (EconomicItem & { unit: Unit })[]
    if (row.kind === 'config.save') {
      const before = (row.before as { value: unknown }).value
      const after = (row.payload as { value: unknown }).value
      items = economicItems(before, after).map((item) => ({
        ...item,
        unit: configUnit(item.field, item.after ?? item.before),
      }))
    } else {
      const before = row.before as AssetBefore
      const coin = row.target.slice('asset:'.length)
      const { version: _v, decimals, ...settings } = before
      const after = proposedSettings(row.payload as Record<string, unknown>, decimals)
      items = economicItems(settings, after, 'asset').map((item) => ({
        ...item,
        row: coin,
        unit: typeof (item.after ?? item.before) === 'boolean' ? { kind: 'flag' } : { kind: 'amount', coin, decimals },
      }))
    }
    return {
      id: row.id,
      status: row.status === 'scheduled' ? 'scheduled' : 'applied',
      effective_at: (row.effective_at as Date).toISOString(),
      items,
    }
  })
  return { list }
}
