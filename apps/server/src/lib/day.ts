// Calendar days in UTC as 'YYYY-MM-DD' strings: what date columns hold and the settlement counts in.

const DAY_MS = 86_400_000

/** The UTC calendar day of `at`. */
export const utcDay = (at: Date = new Date()): string => at.toISOString().slice(0, 10)

/** `day` plus `n` days (n may be negative). */
export const addDays = (day: string, n: number): string => utcDay(new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS))

/** Whole days from `from` to `to` (negative when `to` is earlier). */
export const daysBetween = (from: string, to: string): number =>
  Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS)

/** The newest day whose settlement is due at `now`: day D is due from `hourUtc` o'clock UTC on day D. */
export const latestDueDay = (now: Date, hourUtc: number): string =>
  utcDay(new Date(now.getTime() - hourUtc * 3_600_000))

/** When day D becomes due: `hourUtc` o'clock UTC on day D. */
export const dueAt = (day: string, hourUtc: number): Date =>
  new Date(Date.parse(`${day}T00:00:00Z`) + hourUtc * 3_600_000)

/** True for a real calendar day written 'YYYY-MM-DD'. */
export const isDay = (value: string): boolean =>
  /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(`${value}T00:00:00Z`)) && addDays(value, 0) === value
