/** Lower-case hex of bytes, e.g. a wallet signature (SPEC §9: the signature is sent as hex). */
export const toHex = (bytes: Uint8Array) => Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('')

/** A timestamp for people, in the interface language: '17 Jul 2024, 09:30'. Unparseable input is shown as it is. */
export function formatDateTime(iso: string, language: string | undefined) {
  const date = new Date(iso)
  if (Number.isNaN(date.getTime())) return iso
  return new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' }).format(date)
}

/** A UTC calendar day ('2024-07-17') for people, in the interface language: '17 Jul 2024'. Else as it is. */
export const formatDay = (day: string, language: string | undefined) =>
  formatUtcDay(day, language, { dateStyle: 'medium' })

/** A UTC calendar day in a table's narrow column, all in figures: '7/17/2024', '2024/7/17'. Else as it is. */
export const formatShortDay = (day: string, language: string | undefined) =>
  formatUtcDay(day, language, { year: 'numeric', month: 'numeric', day: 'numeric' })

function formatUtcDay(day: string, language: string | undefined, options: Intl.DateTimeFormatOptions) {
  const date = new Date(`${day}T00:00:00.000Z`)
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day) || Number.isNaN(date.getTime())) return day
  return new Intl.DateTimeFormat(language, { ...options, timeZone: 'UTC' }).format(date)
}

/** Decimals of USDT: prices, values and power are counted in USDT base units. */
export const USDT_DECIMALS = 6

/** Basis points as a plain decimal: 12500 → '1.25', 10000 → '1', 5 → '0.0005' (exact, no floating point). */
function bpsToDecimal(bps: number) {
  const sign = bps < 0 ? '-' : ''
  const abs = Math.abs(Math.trunc(bps))
  const fraction = String(abs % 10_000)
    .padStart(4, '0')
    .replace(/0+$/, '')
  return `${sign}${Math.floor(abs / 10_000)}${fraction ? `.${fraction}` : ''}`
}

/** Basis points as a percentage for people: 500 → '5%', 1250 → '12.5%', 5 → '0.05%'. */
export function bpsToPercent(bps: number) {
  const sign = bps < 0 ? '-' : ''
  const abs = Math.abs(Math.trunc(bps))
  const fraction = String(abs % 100)
    .padStart(2, '0')
    .replace(/0+$/, '')
  return `${sign}${Math.floor(abs / 100)}${fraction ? `.${fraction}` : ''}%`
}

/** Basis points as a multiple for people: 15000 → '×1.5', 10000 → '×1', 10600 → '×1.06'. */
export const bpsToMultiple = (bps: number) => `×${bpsToDecimal(bps)}`
