import { describe, expect, it } from 'vitest'
import { knownLevel } from './format.ts'

describe('knownLevel', () => {
  it('knows the three levels and nothing else', () => {
    expect(knownLevel('junior')).toBe('junior')
    expect(knownLevel('senior')).toBe('senior')
    expect(knownLevel('super')).toBe('super')
    expect(knownLevel('mega')).toBeNull()
    expect(knownLevel('')).toBeNull()
  })
})
