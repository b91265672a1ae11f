/** A local date-time from a datetime-local input as an ISO instant; undefined when empty or unreadable. */
export function localToIso(local: string) {
  const time = local ? new Date(local).getTime() : Number.NaN
  return Number.isNaN(time) ? undefined : new Date(time).toISOString()
}

/** An ISO instant as a datetime-local input's value in the browser's time zone ('2026-05-01T09:30'). */
export function isoToLocal(iso: string) {
  const date = new Date(iso)
  if (Number.isNaN(date.getTime())) return ''
  const pad = (n: number) => String(n).padStart(2, '0')
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`
}
