import type { ColumnType, Generated, Insertable, Selectable } from 'kysely'

/** int8 and numeric columns come back as decimal strings from both PGlite and PostgreSQL (exact, never floats). */
type Int8 = string
type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>

export interface UsersTable {
  id: Generated<Int8>
  address: string
  parent_id: Int8 | null
  created_at: Timestamp
}

export interface LoginNoncesTable {
  nonce: string
  address: string
  domain: string
  message: string
  expires_at: Timestamp
  used_at: Timestamp | null
}

export interface SessionsTable {
  id: Generated<Int8>
  token_hash: string
  user_id: Int8
  address: string
  created_at: Timestamp
  expires_at: Timestamp
  revoked_at: Timestamp | null
}

export interface SettingsTable {
  key: string
  value: ColumnType<unknown, string, string>
  updated_at: Timestamp
}

export interface DB {
  users: UsersTable
  login_nonces: LoginNoncesTable
  sessions: SessionsTable
  settings: SettingsTable
}

export type UserRow = Selectable<UsersTable>
export type NewUser = Insertable<UsersTable>
