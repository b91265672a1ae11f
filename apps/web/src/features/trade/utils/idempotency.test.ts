import { describe, expect, it } from 'vitest'
import { newClientOrderId, submitKeys } from './idempotency.ts'

describe('newClientOrderId', () => {
  it('is a fresh key the contract accepts', () => {
    const a = newClientOrderId()
    expect(a).toMatch(/^[A-Za-z0-9_-]{8,64}$/)
    expect(newClientOrderId()).not.toBe(a)
  })
})

describe('submitKeys', () => {
  const counter = () => {
    let n = 0
    return () => `key-${++n}`
  }

  it('keeps the key while the same order is retried without an answer', () => {
    const keys = submitKeys(counter())
    expect(keys.keyFor('buy|500000|1')).toBe('key-1')
    expect(keys.keyFor('buy|500000|1')).toBe('key-1')
  })

  it('takes a new key when the order changes', () => {
    const keys = submitKeys(counter())
    expect(keys.keyFor('buy|500000|1')).toBe('key-1')
    expect(keys.keyFor('buy|500000|2')).toBe('key-2')
    expect(keys.keyFor('buy|500000|1')).toBe('key-3')
  })

  it('takes a new key for the same order once the last submit was answered', () => {
    const keys = submitKeys(counter())
    expect(keys.keyFor('sell|500000|1')).toBe('key-1')
    keys.answered()
    expect(keys.keyFor('sell|500000|1')).toBe('key-2')
  })
})
