/**
 * Figures by day for the history charts (components/history-chart.tsx). Amounts arrive as base units; the chart draws
 * numbers, so each figure is turned into one here — for drawing only: every figure a user reads (the table, the axis
 * label's unit aside) is written by the formatter from the base units themselves.
 */

/** Base units as a number of whole units, for drawing (exact to the 15 significant digits a chart can show). */
export function unitsToNumber(units: string | bigint, decimals: number): number {
  const value = BigInt(units)
  const scale = 10n ** BigInt(decimals)
  const whole = value / scale
  return Number(whole) + Number(value - whole * scale) / Number(scale)
}

/** Amounts per day of one coin (days without one are left out), oldest first. */
export function amountsOf<T extends { day: string; amount: string }>(
  rows: readonly T[],
  decimals: number,
  text: (row: T) => string,
) {
  return rows.map((row) => ({ day: row.day, value: unitsToNumber(row.amount, decimals), text: text(row) }))
}

/**
 * A level that holds until it changes (power): its value on the first day and after each change, and once more on
 * `to` so that the stepped line reaches the last day.
 */
export function levelsOf(
  rows: readonly { day: string; value: string }[],
  decimals: number,
  to: string,
  text: (units: string) => string,
) {
  const points = rows.map((row) => ({ day: row.day, value: unitsToNumber(row.value, decimals), text: text(row.value) }))
  const last = points.at(-1)
  if (last && last.day < to) points.push({ ...last, day: to })
  return points
}

/**
 * One entry per calendar day from the first point to the last, so that the chart's time axis is proportional (the
 * library spaces its entries evenly): a level carries its value over the days between changes; amounts leave them
 * empty (an entry without a value, which the library draws as nothing).
 */
export function everyDay(points: readonly { day: string; value: number }[], between: 'carry' | 'empty') {
  const first = points[0]
  const last = points.at(-1)
  if (!first || !last) return []
  const byDay = new Map(points.map((point) => [point.day, point.value]))
  const days: { time: string; value?: number }[] = []
  let value = first.value
  for (let at = Date.parse(`${first.day}T00:00:00Z`); at <= Date.parse(`${last.day}T00:00:00Z`); at += 86_400_000) {
    const time = new Date(at).toISOString().slice(0, 10)
    const own = byDay.get(time)
    if (own !== undefined) value = own
    days.push(own !== undefined || between === 'carry' ? { time, value } : { time })
  }
  return days
}
