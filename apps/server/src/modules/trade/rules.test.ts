import { type Language, type MessageKey, translate } from '@solpledge/contract'
import { describe, expect, it } from 'vitest'
import type { AppError } from '../../lib/app-error.ts'
import { DEFAULT_BUSINESS_CONFIG } from '../config/defaults.ts'
import { tradeConfigProblem } from '../config/service.ts'
import { checkLimitOrder, feeOf, marketRules, orderSn, quoteOf } from './rules.ts'

const rules = marketRules(DEFAULT_BUSINESS_CONFIG, { symbol: 'PLG', baseDecimals: 9, quoteDecimals: 6 })
const PLG = 1_000_000_000n

describe('trade rules', () => {
  it('the fee rounds up, in the platform’s favour, and is exact on round amounts', () => {
    expect(feeOf(2_000_000n, 10)).toBe(2000n)
    expect(feeOf(1n, 10)).toBe(1n)
    expect(feeOf(999n, 10)).toBe(1n)
    expect(feeOf(1001n, 10)).toBe(2n)
    expect(feeOf(12_345n, 0)).toBe(0n)
    expect(feeOf(0n, 10)).toBe(0n)
    // What the side keeps never exceeds the rate's share.
    for (const received of [7n, 10_001n, 123_456_789n]) {
      const kept = received - feeOf(received, 10)
      expect(kept * 10_000n).toBeLessThanOrEqual(received * 9990n)
    }
  })

  it('a fill’s USDT is price × amount per whole token, exact on the tick and lot', () => {
    expect(quoteOf(500_000n, 4n * PLG, rules)).toBe(2_000_000n)
    expect(quoteOf(100n, 10_000_000n, rules)).toBe(1n)
  })

  it('refuses a limit order off the tick, off the lot and outside the bounds, with the figures people read', () => {
    const refusal = (price: bigint, amount: bigint) => {
      try {
        checkLimitOrder(rules, price, amount)
        return null
      } catch (error) {
        return error as AppError
      }
    }
    expect(refusal(500_000n, PLG)).toBeNull()
    expect(refusal(0n, PLG)).toMatchObject({ key: 'trade.enterPrice' })
    expect(refusal(500_000n, 0n)).toMatchObject({ key: 'trade.enterAmount' })
    // Amounts travel as amounts and are written in the reader's language with the message (messages/params.ts).
    const read = (error: AppError | null, lang: Language = 'en') =>
      error ? translate(lang, error.key as MessageKey, error.params) : null
    expect(read(refusal(500_050n, PLG))).toBe('The price must be a multiple of 0.0001 USDT')
    expect(read(refusal(500_000n, PLG + 1n))).toBe('The amount must be a multiple of 0.01 PLG')
    expect(read(refusal(500_000n, PLG - 10_000_000n))).toBe('The amount cannot be less than 1 PLG')
    expect(read(refusal(500_000n, 10_000_000n * PLG + 10_000_000n))).toBe(
      'The amount cannot be more than 10,000,000 PLG',
    )
  })

  it('a configuration must give exact fills: tick × lot a multiple of one whole token', () => {
    const trade = DEFAULT_BUSINESS_CONFIG.trade
    expect(tradeConfigProblem(trade, 9)).toBeNull()
    expect(tradeConfigProblem({ ...trade, tickSize: '50' }, 9)).toMatch(/multiple of 10\^9/)
    expect(tradeConfigProblem({ ...trade, tickSize: '1', lotSize: String(PLG) }, 9)).toBeNull()
    expect(tradeConfigProblem({ ...trade, minAmount: '2', maxAmount: '1' }, 9)).toMatch(/minAmount/)
  })

  it('order numbers: T, the UTC day, the id padded to 8 digits', () => {
    expect(orderSn(42n, new Date('2026-11-22T23:59:59Z'))).toBe('T2026112200000042')
    expect(orderSn(123_456_789n, new Date('2027-01-01T00:00:00Z'))).toBe('T20270101123456789')
  })
})
