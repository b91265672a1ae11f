import { withoutEmpty } from '@/admin/lib/filters.ts'
import { localToIso } from '@/admin/lib/local-time.ts'

/** The audit search form: free texts, and local date-times as a datetime-local input gives them. */
export interface AuditSearch {
  action: string
  actor: string
  target: string
  from: string
  to: string
}

/** The audit route's filter from the form: empty fields left out, the times as instants (an unreadable one left out). */
export const auditQuery = ({ from, to, ...texts }: AuditSearch) =>
  withoutEmpty({ ...texts, from: localToIso(from) ?? '', to: localToIso(to) ?? '' })
