import { describe, expect, it } from 'vitest'
import { SessionCache, type SessionUser } from './session.ts'

const user = (id: string): SessionUser => ({
  id,
  address: `address-${id}`,
  parent_address: null,
  invite_code: `address-${id}`,
  created_at: new Date(0).toISOString(),
  sessionId: `s${id}`,
})
const far = new Date(Date.now() + 3_600_000)

describe('SessionCache', () => {
  it('keeps at most maxEntries, dropping the oldest check', () => {
    const cache = new SessionCache(1000, 2)
    cache.set('a', user('1'), 'x', far, 0)
    cache.set('b', user('2'), 'x', far, 0)
    cache.set('c', user('3'), 'x', far, 0)
    expect(cache.get('a', 1)).toBeUndefined()
    expect(cache.get('b', 1)?.user.id).toBe('2')
    expect(cache.get('c', 1)?.user.id).toBe('3')
  })

  it('stores nothing when the cache time is 0', () => {
    const cache = new SessionCache(0)
    cache.set('a', user('1'), 'x', far, 0)
    expect(cache.get('a', 0)).toBeUndefined()
  })

  it('ends an entry at the cache time or the session expiry, whichever is first', () => {
    const cache = new SessionCache(1000)
    cache.set('a', user('1'), 'x', new Date(500), 0)
    cache.set('b', user('2'), 'x', far, 0)
    expect(cache.get('a', 499)).toBeDefined()
    expect(cache.get('a', 500)).toBeUndefined()
    expect(cache.get('b', 999)).toBeDefined()
    expect(cache.get('b', 1000)).toBeUndefined()
  })
})
