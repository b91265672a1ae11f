import { requireAsset } from '../assets/index.ts'
import type { PurposeHandler } from '../intents/index.ts'
import { readPledgeConfig, stakeFromBalance, stakeTerms } from './service.ts'

/** What a stake intent fixes when it is made: the period and the terms the stake gets when the payment arrives. */
interface StakeDetails {
  days: number
  /** USDT base units per whole token at creation. */
  price: string
  output_bps: number
  power_bps: number
}

/**
 * A stake paid on chain: `amount` of {product} and `days`, checked against the minimum and the periods when the
 * intent is made, whose price and rates are fixed then; the payment arrives in the balance and is staked from there.
 */
export const stakePurpose: PurposeHandler<StakeDetails> = {
  async create(db, { productSymbol, input, need, sameCoin }) {
    const amount = need(input.amount, 'amount')
    const days = need(input.days, 'days')
    sameCoin(productSymbol)
    const terms = stakeTerms(await readPledgeConfig(db, productSymbol), BigInt(amount), days)
    const details = { days, price: terms.price.toString(), output_bps: terms.output_bps, power_bps: terms.power_bps }
    return { coin: productSymbol, amount, details }
  },
  async fulfil(trx, intent, details) {
    const asset = await requireAsset(trx, intent.asset)
    const stake = await stakeFromBalance(trx, {
      userId: intent.user_id,
      asset: intent.asset,
      decimals: asset.decimals,
      terms: {
        amount: BigInt(intent.amount),
        days: details.days,
        price: BigInt(details.price),
        output_bps: details.output_bps,
        power_bps: details.power_bps,
      },
      intentId: intent.id,
    })
    return `applied:${stake.id}`
  },
  present: (details) => ({ days: details.days }),
  successKey: 'pledge.success',
}
