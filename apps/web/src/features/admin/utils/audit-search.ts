import { localToIso } from './local-time.ts'

/** The audit search form: free texts, and local date-times as a datetime-local input gives them. */
export interface AuditSearch {
  action: string
  actor: string
  target: string
  from: string
  to: string
}

/** The audit route's filter from the form: empty fields left out, the times as instants. */
export function auditQuery(search: AuditSearch) {
  const text = (value: string) => value.trim() || undefined
  const query = {
    action: text(search.action),
    actor: text(search.actor),
    target: text(search.target),
    from: localToIso(search.from),
    to: localToIso(search.to),
  }
  return Object.fromEntries(Object.entries(query).filter(([, value]) => value !== undefined)) as Partial<
    Record<keyof AuditSearch, string>
  >
}
