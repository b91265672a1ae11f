import { describe, expect, it } from 'vitest'
import { applyBps } from './bps.ts'

describe('applyBps', () => {
  it('applies a rate or multiple in basis points, rounding down', () => {
    expect(applyBps(200_000_000_000n, 10_600)).toBe(212_000_000_000n)
    expect(applyBps(100_000_000n, 50)).toBe(500_000n)
    expect(applyBps(1n, 15_000)).toBe(1n)
    expect(applyBps(3n, 3_333)).toBe(0n)
    expect(applyBps(0n, 20_000)).toBe(0n)
  })

  it('is exact beyond 2^53', () => {
    expect(applyBps(18_446_744_073_709_551_615n, 10_000)).toBe(18_446_744_073_709_551_615n)
    expect(applyBps(9_007_199_254_740_993n, 20_000)).toBe(18_014_398_509_481_986n)
  })
})
