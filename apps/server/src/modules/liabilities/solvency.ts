// The solvency report: the liabilities (owed.ts) against what the platform holds on chain per asset. It lives beside
// the liabilities' one definition, which builds on the assets module (never the other way round).
import type { Database } from '../../db/index.ts'
import type { Platform } from '../../platform.ts'
import { holdingsOf, listAssets } from '../assets/index.ts'
import { owedTotals } from './owed.ts'

/**
 * What users are owed per asset (owed.ts: balances, promised output, unredeemed deposits) against what the treasury
 * and hot wallet hold on chain, read now.
 */
export async function solvency(db: Database, platform: Platform) {
  const readAt = new Date()
  const list = []
  const owed = await owedTotals(db)
  for (const asset of await listAssets(db)) {
    if (!asset.mint) continue
    const liabilities = owed.get(asset.code) ?? 0n
    const { treasury, hotWallet, holdings } = await holdingsOf(platform, asset.mint)
    list.push({
      coin: asset.code,
      decimals: asset.decimals,
      liabilities: liabilities.toString(),
      treasury: (treasury ?? 0n).toString(),
      hot_wallet: (hotWallet ?? 0n).toString(),
      holdings: holdings.toString(),
      covered: holdings >= liabilities,
    })
  }
  return { read_at: readAt.toISOString(), list }
}
