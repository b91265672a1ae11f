import { Code, type MessageKey } from '@solpledge/contract'
import { AppError } from './app-error.ts'

/** The largest bigint: ids above it cannot exist (and would make PostgreSQL fail instead of finding nothing). */
const MAX_ID = 9223372036854775807n

/** True when a contract Id (a decimal string) can name a row. */
export const isStorableId = (id: string): boolean => BigInt(id) <= MAX_ID

/** The id when it can name a row; else the refusal 'not found' with `key` (an id beyond bigint names nothing). */
export function storableId(id: string, key: MessageKey): string {
  if (!isStorableId(id)) throw new AppError(Code.NOT_FOUND, key)
  return id
}
