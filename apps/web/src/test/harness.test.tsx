// @vitest-environment happy-dom
import { api } from '@solpledge/contract'
import { describe, expect, it } from 'vitest'
import { answerProblem } from './harness.tsx'

describe("the fake API's answers", () => {
  it("pass only when the contract's response schema for the route allows them", () => {
    expect(answerProblem(api.isReg.path, { is_reg: 1 })).toBeNull()
    expect(answerProblem(api.isReg.path, { is_reg: 2 })).toMatch(
      /^\/user\/login\/is_reg answered \{"is_reg":2\}: \/is_reg/,
    )
    expect(answerProblem(api.financeDeposit.path, {})).toMatch(/must have required properties/)
    expect(answerProblem(api.financeDeposit.path, { amount: 100 })).not.toBeNull()
    expect(answerProblem('/no/such/route', {})).toBe('/no/such/route is no route of the contract')
  })
})
