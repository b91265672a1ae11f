import type { User } from '@solpledge/contract'
import type { Database } from '../../db/index.ts'

/** Users with their referrer's address: the columns of the contract's User. */
export const userQuery = (db: Database) =>
  db
    .selectFrom('users as u')
    .leftJoin('users as p', 'p.id', 'u.parent_id')
    .select(['u.id', 'u.address', 'u.created_at', 'p.address as parent_address'])

type UserSelection = { id: string; address: string; created_at: Date; parent_address: string | null }

export const toUser = (row: UserSelection): User => ({
  id: row.id,
  address: row.address,
  parent_address: row.parent_address,
  invite_code: row.address,
  created_at: row.created_at.toISOString(),
})

export async function findUserByAddress(db: Database, address: string): Promise<User | undefined> {
  const row = await userQuery(db).where('u.address', '=', address).executeTakeFirst()
  return row && toUser(row)
}
