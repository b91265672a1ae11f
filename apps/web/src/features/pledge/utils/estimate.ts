import type { PledgeConfig } from '@solpledge/contract/client'
import { applyBps } from '@/lib/bps.ts'

type Period = PledgeConfig['periods'][number]

/**
 * What a stake of `amount` base units would be, computed as the server computes it (all rounded down): its USDT
 * value at the current price, its total output over the period in {product}, the output of a regular day, and its
 * power in USDT base units.
 */
export function stakeEstimate(amount: bigint, config: Pick<PledgeConfig, 'price' | 'decimals'>, period: Period) {
  const usdtValue = (amount * BigInt(config.price)) / 10n ** BigInt(config.decimals)
  const totalOutput = applyBps(amount, period.output_bps)
  return {
    usdtValue,
    totalOutput,
    dailyOutput: totalOutput / BigInt(period.days),
    power: applyBps(usdtValue, period.power_bps),
  }
}
