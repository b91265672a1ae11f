import { describe, expect, it } from 'vitest'
import { uuidv7 } from './request-log.ts'

describe('request ids (UUIDv7)', () => {
  it('are RFC 9562 version 7: the time first, then random bits, never the same twice', () => {
    const at = Date.UTC(2026, 10, 28, 1, 2, 3, 456)
    const id = uuidv7(at)
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
    expect(Number.parseInt(id.replace(/-/g, '').slice(0, 12), 16)).toBe(at)
    const many = new Set(Array.from({ length: 10_000 }, () => uuidv7(at)))
    expect(many.size).toBe(10_000)
    // Later ids sort after earlier ones (by their time), as text.
    expect(uuidv7(at + 1) > uuidv7(at)).toBe(true)
  })
})
