import { type LocalToken, localnetFaucet, localnetTokens } from '../../chain/localnet.ts'
import { REFUSED_EXTENSIONS, readMint } from '../../chain/token.ts'
import { type Config, ConfigError } from '../../config.ts'
import type { Database } from '../../db/index.ts'
import type { Platform } from '../../platform.ts'

/** Demo parameters of each asset (whole tokens); the operator console edits them later. */
const DEFAULTS: Record<string, { sort: number; minWithdraw: bigint; fee: bigint; review: bigint }> = {
  PLG: { sort: 0, minWithdraw: 10n, fee: 1n, review: 100_000n },
  USDT: { sort: 1, minWithdraw: 10n, fee: 1n, review: 10_000n },
}

/** The platform token and USDT: the local chain's, or PRODUCT_MINT / USDT_MINT (mints only; decimals read later). */
export async function platformMints(config: Config, platform: Platform): Promise<{ symbol: string; mint: string }[]> {
  if (platform.localChain) return localnetTokens(platform.rpcUrl)
  return [
    { symbol: config.productSymbol, mint: config.productMint as string },
    { symbol: 'USDT', mint: config.usdtMint as string },
  ]
}

/**
 * Reads each configured mint's program (classic SPL Token or Token-2022) and decimals from the cluster; a wrong mint, a
 * Token-2022 mint with an extension the ledger cannot account for (a transfer fee) or an unreachable RPC is named plainly.
 */
async function configuredTokens(config: Config, platform: Platform): Promise<LocalToken[]> {
  const tokens: LocalToken[] = []
  const problems: string[] = []
  for (const { symbol, mint } of await platformMints(config, platform)) {
    const setting = symbol === 'USDT' ? 'USDT_MINT' : 'PRODUCT_MINT'
    try {
      const info = await readMint(platform.chain, mint)
      const refused = info.extensions.flatMap((type) => REFUSED_EXTENSIONS[type] ?? [])
      if (refused.length > 0)
        problems.push(
          `${setting} ${mint} has ${refused.join(' and ')}: users would be credited more than the treasury receives; ` +
            'use a mint without it',
        )
      else tokens.push({ symbol, mint, decimals: info.decimals, program: info.program })
    } catch (error) {
      problems.push(
        `${setting} ${mint}: the cluster at SOLANA_RPC_URL (${config.cluster}) does not answer it as a token mint ` +
          `(${(error as Error).message})`,
      )
    }
  }
  if (problems.length > 0) throw new ConfigError(problems)
  return tokens
}

/**
 * First-start asset setup, idempotent: the platform token and USDT with their mints (from the local chain, or from
 * PRODUCT_MINT / USDT_MINT). On the local chain the hot wallet is also funded so withdrawals can be paid.
 */
export async function seedAssets(db: Database, config: Config, platform: Platform) {
  const existing = await db.selectFrom('assets').select('code').execute()
  if (existing.length === 0) {
    const tokens = platform.localChain
      ? await localnetTokens(platform.rpcUrl)
      : await configuredTokens(config, platform)
    for (const token of tokens) {
      const defaults = DEFAULTS[token.symbol] ?? { sort: 9, minWithdraw: 1n, fee: 0n, review: 0n }
      const unit = 10n ** BigInt(token.decimals)
      await db
        .insertInto('assets')
        .values({
          code: token.symbol,
          symbol: token.symbol,
          decimals: token.decimals,
          mint: token.mint,
          is_user_recharge: true,
          withdraw_enabled: true,
          min_atm_money: (defaults.minWithdraw * unit).toString(),
          withdraw_fee: (defaults.fee * unit).toString(),
          review_threshold: defaults.review ? (defaults.review * unit).toString() : null,
          sort: defaults.sort,
        })
        .onConflict((oc) => oc.column('code').doNothing())
        .execute()
    }
  }
  if (platform.localChain) {
    const lamports = await platform.chain.rpc.getBalance(platform.hotWallet.address as never).send()
    if (lamports.value < 1_000_000_000n) {
      const tokens: Record<string, string> = {}
      for (const asset of await db.selectFrom('assets').select(['symbol', 'decimals']).execute())
        tokens[asset.symbol] = (1_000_000n * 10n ** BigInt(asset.decimals)).toString()
      await localnetFaucet(platform.rpcUrl, platform.hotWallet.address, { sol: '10000000000', tokens })
    }
  }
}
