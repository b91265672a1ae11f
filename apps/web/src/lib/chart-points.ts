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
