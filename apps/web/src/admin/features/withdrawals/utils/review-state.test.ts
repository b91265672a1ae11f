import { describe, expect, it } from 'vitest'
import { isOwnWallet, reviewState } from './review-state.ts'

const approval = (admin: string) => ({ admin, role: 'operator' as const, at: '2026-01-01T00:00:00.000Z' })

describe('where a withdrawal in review stands', () => {
  it('needs nothing more than one approval under the two-reviewer threshold', () => {
    expect(reviewState({ approvals: [], approvals_needed: 1 }, 'me')).toBe('open')
  })

  it('needs two different operators above it, then a second one after the first', () => {
    expect(reviewState({ approvals: [], approvals_needed: 2 }, 'me')).toBe('needsTwo')
    expect(reviewState({ approvals: [approval('other')], approvals_needed: 2 }, 'me')).toBe('needsSecond')
  })

  it('tells the operator who approved that another one must', () => {
    expect(reviewState({ approvals: [approval('me')], approvals_needed: 2 }, 'me')).toBe('approvedByMe')
  })
})

describe("the reviewer's own wallet", () => {
  const withdrawal = { address: 'dest', user_address: 'user' }

  it('is the recipient when the withdrawal is sent to it or asked for by it', () => {
    expect(isOwnWallet(withdrawal, 'dest')).toBe(true)
    expect(isOwnWallet(withdrawal, 'user')).toBe(true)
  })

  it('is not when another wallet asked for it and receives it', () => {
    expect(isOwnWallet(withdrawal, 'me')).toBe(false)
  })
})
