/** The largest bigint: ids above it cannot exist (and would make PostgreSQL fail instead of finding nothing). */
export const MAX_ID = 9223372036854775807n

/** True when a contract Id (a decimal string) can name a row. */
export const isStorableId = (id: string): boolean => BigInt(id) <= MAX_ID
