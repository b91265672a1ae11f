import { describe, expect, it } from 'vitest'
import { defaultTiers, readTiers, tiersDraft } from './campaign-tiers.ts'

describe('campaign tiers in the console', () => {
  it("starts from the spec's five fuel tiers and sends them in base units", () => {
    const read = readTiers(defaultTiers(), 6)
    expect(read.ok && read.value.map((tier) => [tier.min_direct, tier.min_fuel])).toEqual([
      [1, '3000000000'],
      [2, '10000000000'],
      [3, '20000000000'],
      [4, '50000000000'],
      [5, '100000000000'],
    ])
  })

  it('round-trips stored tiers of every reward kind', () => {
    const tiers = [
      { min_direct: 0, min_fuel: '2500500000', reward: { kind: 'text' as const, text: 'A dinner' } },
      { min_direct: 3, min_fuel: '3000000000', reward: { kind: 'trip' as const, places: 2 } },
      { min_direct: 3, min_fuel: '9000000000', reward: { kind: 'node' as const, level: 'junior' } },
    ]
    expect(tiersDraft(tiers, 6)[0]?.fuel).toBe('2500.5')
    expect(readTiers(tiersDraft(tiers, 6), 6)).toEqual({ ok: true, value: tiers })
  })

  it('names the first field that cannot be sent', () => {
    const base = defaultTiers([3000])[0] as ReturnType<typeof defaultTiers>[number]
    const cases = [
      [{ ...base, direct: '-1' }, 'direct'],
      [{ ...base, direct: '1.5' }, 'direct'],
      [{ ...base, fuel: '3000.0000001' }, 'fuel'],
      [{ ...base, fuel: 'abc' }, 'fuel'],
      [{ ...base, kind: 'node' as const }, 'level'],
      [{ ...base, places: '0' }, 'places'],
      [{ ...base, places: '101' }, 'places'],
      [{ ...base, kind: 'text' as const, text: '  ' }, 'text'],
    ] as const
    for (const [draft, problem] of cases)
      expect(readTiers([base, draft], 6), problem).toEqual({ ok: false, index: 1, problem })
    expect(readTiers([{ ...base, fuel: '3,000' }], 6)).toMatchObject({ ok: true })
  })
})
