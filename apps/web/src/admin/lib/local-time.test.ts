import { describe, expect, it } from 'vitest'
import { isoToLocal, localToIso } from './local-time.ts'

describe('datetime-local values', () => {
  it('turns datetime-local values into instants and back', () => {
    const local = '2026-05-01T09:30'
    const iso = localToIso(local)
    expect(iso).toBe(new Date(local).toISOString())
    expect(isoToLocal(iso ?? '')).toBe(local)
    expect(localToIso('')).toBeUndefined()
    expect(isoToLocal('nonsense')).toBe('')
  })
})
