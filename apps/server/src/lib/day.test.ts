import { describe, expect, it } from 'vitest'
import { addDays, daysBetween, isDay, latestDueDay, utcDay } from './day.ts'

describe('UTC days', () => {
  it('reads the UTC day, whatever the local time zone', () => {
    expect(utcDay(new Date('2026-11-22T23:59:59.999Z'))).toBe('2026-11-22')
    expect(utcDay(new Date('2026-11-23T00:00:00Z'))).toBe('2026-11-23')
  })
  it('adds days across months, years and leap days', () => {
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01')
    expect(addDays('2028-02-28', 1)).toBe('2028-02-29')
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28')
    expect(daysBetween('2026-11-22', '2026-11-29')).toBe(7)
    expect(daysBetween('2026-11-29', '2026-11-22')).toBe(-7)
  })
  it('a day is due from the settlement hour on', () => {
    expect(latestDueDay(new Date('2026-11-22T07:59:00Z'), 8)).toBe('2026-11-21')
    expect(latestDueDay(new Date('2026-11-22T08:00:00Z'), 8)).toBe('2026-11-22')
    expect(latestDueDay(new Date('2026-11-22T00:00:00Z'), 0)).toBe('2026-11-22')
  })
  it('accepts only real calendar days', () => {
    expect(isDay('2026-11-22')).toBe(true)
    for (const bad of ['2026-02-30', '2026-13-01', '26-11-22', '2026-11-22T00:00:00Z', ''])
      expect(isDay(bad), bad).toBe(false)
  })
})
