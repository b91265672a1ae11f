import { describe, expect, it } from 'vitest'
import { actionKeys, newIdempotencyKey } from './idempotency.ts'

describe('newIdempotencyKey', () => {
  it('is a fresh key the contract accepts as a client_order_id too', () => {
    const a = newIdempotencyKey()
    expect(a).toMatch(/^[A-Za-z0-9_-]{8,64}$/)
    expect(newIdempotencyKey()).not.toBe(a)
  })
})

describe('actionKeys', () => {
  class Timeout extends Error {}
  const setup = () => {
    let n = 0
    const keys = actionKeys({ unanswered: (error) => error instanceof Timeout, create: () => `key-${++n}` })
    const sent: string[] = []
    const answer = (input: string) => keys.call(input, async (key) => void sent.push(key))
    const fail = (input: string, error: Error) =>
      keys
        .call(input, async (key) => {
          sent.push(key)
          throw error
        })
        .catch((e: unknown) => expect(e).toBe(error))
    return { sent, answer, fail }
  }

  it('retries the same input with the same key while the last call was not answered', async () => {
    const { sent, answer, fail } = setup()
    await fail('buy|500000|1', new Timeout())
    await fail('buy|500000|1', new Timeout())
    await answer('buy|500000|1')
    expect(sent).toEqual(['key-1', 'key-1', 'key-1'])
  })

  it('takes a new key once the last call was answered, done or refused', async () => {
    const { sent, answer, fail } = setup()
    await answer('sell|500000|1')
    await answer('sell|500000|1')
    await fail('sell|500000|1', new Error('Insufficient balance'))
    await answer('sell|500000|1')
    expect(sent).toEqual(['key-1', 'key-2', 'key-3', 'key-4'])
  })

  it('takes a new key when the input changes, even after an unanswered call', async () => {
    const { sent, answer, fail } = setup()
    await fail('buy|500000|1', new Timeout())
    await answer('buy|500000|2')
    await answer('buy|500000|1')
    expect(sent).toEqual(['key-1', 'key-2', 'key-3'])
  })
})
