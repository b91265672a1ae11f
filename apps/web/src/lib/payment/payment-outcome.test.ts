import { describe, expect, it } from 'vitest'
import { paymentOutcome } from './payment-outcome.ts'

describe('paymentOutcome', () => {
  it('says what each purpose made happen', () => {
    expect(paymentOutcome({ purpose: 'recharge', refusal: null })).toEqual({
      ok: true,
      notice: { key: 'assets.rechargeSuccess' },
    })
    expect(paymentOutcome({ purpose: 'stake', refusal: null })).toEqual({ ok: true, notice: { key: 'pledge.success' } })
    expect(paymentOutcome({ purpose: 'node', refusal: null })).toEqual({ ok: true, notice: { key: 'node.purchased' } })
  })

  it('reports the reason when the stake or node could not be made after the payment', () => {
    expect(paymentOutcome({ purpose: 'node', refusal: 'node.soldOutPaid' })).toEqual({
      ok: false,
      notice: { key: 'node.soldOutPaid' },
    })
  })
})
