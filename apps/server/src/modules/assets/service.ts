import {
  type AssetBalance,
  Code,
  type CsvCell,
  formatAmount,
  type LedgerEntry,
  type LedgerType,
} from '@solpledge/contract'
import type { Selectable } from 'kysely'
import { localnetFaucet } from '../../chain/localnet.ts'
import { ownerTokenBalance } from '../../chain/token.ts'
import type { Database } from '../../db/index.ts'
import type { AssetsTable } from '../../db/schema.ts'
import { AppError, refuse } from '../../lib/app-error.ts'
import { EXPORT_PAGE } from '../../lib/csv.ts'
import type { Platform } from '../../platform.ts'
import { QUOTE } from '../config/index.ts'
import { type BalancedEntry, balances, fullStatement, statement } from '../ledger/index.ts'
import { valuation } from '../trade/index.ts'

export type AssetRow = Selectable<AssetsTable>

export async function requireAsset(db: Database, code: string): Promise<AssetRow> {
  const asset = await db.selectFrom('assets').selectAll().where('code', '=', code).executeTakeFirst()
  if (!asset) throw new AppError(Code.INVALID, 'assets.unknownAsset')
  return asset
}

export const listAssets = (db: Database) =>
  db.selectFrom('assets').selectAll().orderBy('sort').orderBy('code').execute()

/**
 * The user's assets with balances (docs/product.md#records: coin, amount, balance, available, is_user_recharge) and
 * what each is worth in USDT: USDT at par, the platform token (`product`) at the valuation price, any other asset null.
 */
export async function userWallet(db: Database, userId: string, product: string): Promise<AssetBalance[]> {
  const [assets, held, { price }] = await Promise.all([listAssets(db), balances(db, userId), valuation(db, product)])
  return assets.map((asset) => {
    const own = held[asset.code] ?? { available: 0n, locked: 0n }
    const balance = own.available + own.locked
    const usdtValue =
      asset.code === QUOTE ? balance : asset.code === product ? (balance * price) / 10n ** BigInt(asset.decimals) : null
    return {
      coin: asset.code,
      symbol: asset.symbol,
      decimals: asset.decimals,
      mint: asset.mint,
      balance: balance.toString(),
      available: own.available.toString(),
      locked: own.locked.toString(),
      is_user_recharge: asset.is_user_recharge ? 1 : 0,
      is_withdraw: asset.withdraw_enabled ? 1 : 0,
      min_atm_money: asset.min_atm_money,
      fee: asset.withdraw_fee,
      usdt_value: usdtValue === null ? null : usdtValue.toString(),
    }
  })
}

export async function moneyLog(
  db: Database,
  userId: string,
  query: { page: number; limit: number; coin?: string | undefined; type?: LedgerType | undefined },
): Promise<{ list: LedgerEntry[]; total: number; page: number; limit: number }> {
  const { list, total } = await statement(db, {
    userId,
    asset: query.coin,
    type: query.type,
    page: query.page,
    limit: query.limit,
  })
  return { list, total, page: query.page, limit: query.limit }
}

/**
 * The user's ledger as the rows of its CSV file (the moneyLogCsv columns): amounts in the asset's units, and the
 * on-chain signature of a deposit (its payment intent's) or a withdrawal (its payout's, once sent).
 */
export async function* moneyLogFile(
  db: Database,
  userId: string,
  query: { coin?: string | undefined; type?: LedgerType | undefined },
): AsyncGenerator<CsvCell[]> {
  const decimals = new Map((await listAssets(db)).map((asset) => [asset.code, asset.decimals]))
  let page: BalancedEntry[] = []
  const flush = async function* () {
    const refs = page.map((entry) => /^(intent|withdraw):(\d+)$/.exec(entry.reference ?? ''))
    const ids = (kind: string) => refs.flatMap((ref) => (ref?.[1] === kind ? [ref[2] as string] : []))
    const found = {
      intent: await signatures(db, 'payment_intents', ids('intent')),
      withdraw: await signatures(db, 'withdrawals', ids('withdraw')),
    }
    for (const [index, entry] of page.entries()) {
      const ref = refs[index]
      const signature = ref ? (found[ref[1] as keyof typeof found].get(ref[2] as string) ?? null) : null
      const units = decimals.get(entry.coin) ?? 0
      yield [
        entry.created_at,
        entry.type,
        entry.coin,
        entry.account,
        formatAmount(entry.amount, units),
        formatAmount(entry.balance_after, units),
        signature,
        entry.reference,
      ]
    }
    page = []
  }
  for await (const entry of fullStatement(db, { userId, asset: query.coin, type: query.type, pageSize: EXPORT_PAGE })) {
    page.push(entry)
    if (page.length === EXPORT_PAGE) yield* flush()
  }
  yield* flush()
}

/** The signatures of some payment intents or withdrawals, by id. */
async function signatures(db: Database, table: 'payment_intents' | 'withdrawals', ids: string[]) {
  if (!ids.length) return new Map<string, string>()
  const rows = await db.selectFrom(table).select(['id', 'signature']).where('id', 'in', ids).execute()
  return new Map(rows.flatMap((row) => (row.signature ? [[String(row.id), row.signature] as const] : [])))
}

/** Local chain only: SOL for fees and some of every token, so a newcomer can try top-up and staking. */
export async function faucet(db: Database, platform: Platform, address: string): Promise<string[]> {
  if (!platform.localChain) throw refuse('assets.faucetLocalOnly')
  const tokens: Record<string, string> = {}
  for (const asset of await listAssets(db))
    if (asset.mint) tokens[asset.symbol] = (1000n * 10n ** BigInt(asset.decimals)).toString()
  return localnetFaucet(platform.rpcUrl, address, { sol: '2000000000', tokens })
}

/** What the treasury and the hot wallet hold of a mint on chain, read now. */
export async function holdingsOf(platform: Platform, mint: string) {
  const [treasury, hotWallet] = await Promise.all([
    ownerTokenBalance(platform.chain, platform.treasury.address, mint),
    ownerTokenBalance(platform.chain, platform.hotWallet.address, mint),
  ])
  return { treasury, hotWallet, holdings: (treasury ?? 0n) + (hotWallet ?? 0n) }
}

/**
 * The reserves the settlement's circuit breaker compares a day's payout with (docs/settlement.md): what the treasury
 * and the hot wallet hold of the asset on chain; null for an asset without a mint. A failed read throws.
 */
export function reserves(db: Database, platform: Platform): (asset: string) => Promise<bigint | null> {
  return async (code) => {
    const asset = await db.selectFrom('assets').select('mint').where('code', '=', code).executeTakeFirst()
    return asset?.mint ? (await holdingsOf(platform, asset.mint)).holdings : null
  }
}
