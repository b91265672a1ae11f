import type { TradeOrder } from '@solpledge/contract/client'
import { describe, expect, it } from 'vitest'
import { orderAmounts } from './order-amounts.ts'

const product = { symbol: 'PLG', decimals: 9 }
const usdt = { symbol: 'USDT', decimals: 6 }

const order = (fields: Partial<TradeOrder>): TradeOrder => ({
  id: '1',
  order_sn: 'T1',
  type: 'sell',
  kind: 'limit',
  status: 'pending',
  price: '500000',
  amount: '20000000000',
  sold_amount: '8000000001',
  remaining_amount: '11999999999',
  average_price: '500000',
  quote_amount: '4000000',
  total_earnings: '3960000',
  fee: '40000',
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
  ...fields,
})

describe("a user's quick-trade orders in the console", () => {
  it('shows the price in USDT per token and the amounts in the product, to the last base unit', () => {
    expect(orderAmounts(order({}), product, usdt)).toEqual({
      price: '0.5 USDT',
      amount: '20 PLG',
      sold: '8.000000001 PLG',
      remaining: '11.999999999 PLG',
      earnings: '3.96 USDT',
    })
  })

  it('counts the earnings in the asset received: the product for a buy', () => {
    expect(orderAmounts(order({ type: 'buy', total_earnings: '7920000000' }), product, usdt).earnings).toBe('7.92 PLG')
  })

  it('has no price for a swap', () => {
    expect(orderAmounts(order({ kind: 'swap', price: null }), product, usdt).price).toBeNull()
  })
})
