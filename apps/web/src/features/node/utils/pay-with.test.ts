import { describe, expect, it } from 'vitest'
import { defaultPayWith } from './pay-with.ts'

describe('defaultPayWith', () => {
  it('starts on the balance when it can pay or is not known yet', () => {
    expect(defaultPayWith({ balance: true, chain: true })).toBe('balance')
    expect(defaultPayWith({ balance: true, chain: false })).toBe('balance')
    expect(defaultPayWith({ balance: undefined, chain: true })).toBe('balance')
  })

  it('starts on the wallet when the balance holds too little and the wallet may pay', () => {
    expect(defaultPayWith({ balance: false, chain: true })).toBe('chain')
    expect(defaultPayWith({ balance: false, chain: undefined })).toBe('chain')
  })

  it('stays on the balance when neither can pay', () => {
    expect(defaultPayWith({ balance: false, chain: false })).toBe('balance')
  })
})
