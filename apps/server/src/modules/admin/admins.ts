// The operator allow-list: ADMIN_ADDRESSES entries (source 'config', set again at every start and not editable in
// the console), operators added by an admin in the console (source 'console') and the local chain's first sign-in
// (source 'local'). Removed operators keep their row with removed_at, so the audit log's names stay meaningful.
import { type AdminRole, type AdminUser, Code } from '@solpledge/contract'
import type { Selectable } from 'kysely'
import type { Database } from '../../db/index.ts'
import type { AdminsTable } from '../../db/schema.ts'
import { AppError, invalid, refuse } from '../../lib/app-error.ts'
import { isWalletAddress } from '../auth/crypto.ts'
import { audit } from './audit.ts'
import type { AdminCaller } from './session.ts'

const present = (row: Selectable<AdminsTable>): AdminUser => ({
  address: row.address,
  role: row.role,
  source: row.source,
  added_by: row.added_by,
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
})

/**
 * Start-up: makes the allow-list's 'config' entries exactly ADMIN_ADDRESSES. Listed addresses get the listed role
 * (also when the console had added or removed them); 'config' entries no longer listed are removed.
 */
export async function syncConfiguredAdmins(db: Database, entries: { address: string; role: AdminRole }[]) {
  await db.transaction().execute(async (trx) => {
    for (const { address, role } of entries)
      await trx
        .insertInto('admins')
        .values({ address, role, source: 'config', added_by: 'ADMIN_ADDRESSES' })
        .onConflict((oc) =>
          oc.column('address').doUpdateSet({
            role,
            source: 'config',
            added_by: 'ADMIN_ADDRESSES',
            removed_at: null,
            updated_at: new Date(),
          }),
        )
        .execute()
    await trx
      .updateTable('admins')
      .set({ removed_at: new Date(), updated_at: new Date() })
      .where('source', '=', 'config')
      .where('removed_at', 'is', null)
      .$if(entries.length > 0, (qb) =>
        qb.where(
          'address',
          'not in',
          entries.map((e) => e.address),
        ),
      )
      .execute()
  })
}

export async function listAdmins(db: Database): Promise<{ list: AdminUser[] }> {
  const rows = await db
    .selectFrom('admins')
    .selectAll()
    .where('removed_at', 'is', null)
    .orderBy('created_at')
    .orderBy('address')
    .execute()
  return { list: rows.map(present) }
}

async function editable(db: Database, caller: AdminCaller, address: string) {
  if (!isWalletAddress(address)) throw invalid('auth.invalidAddress')
  if (address === caller.address) throw refuse('admin.notSelf')
  const row = await db.selectFrom('admins').selectAll().where('address', '=', address).forUpdate().executeTakeFirst()
  if (row?.source === 'config' && row.removed_at === null) throw refuse('admin.configManaged')
  return row
}

/** Adds an operator (or brings a removed one back) or changes a console operator's role. */
export async function saveAdmin(
  db: Database,
  caller: AdminCaller,
  input: { address: string; role: AdminRole },
): Promise<AdminUser> {
  return db.transaction().execute(async (trx) => {
    const before = await editable(trx, caller, input.address)
    const row = await trx
      .insertInto('admins')
      .values({ address: input.address, role: input.role, source: 'console', added_by: caller.address })
      .onConflict((oc) =>
        oc.column('address').doUpdateSet({
          role: input.role,
          source: 'console',
          removed_at: null,
          updated_at: new Date(),
        }),
      )
      .returningAll()
      .executeTakeFirstOrThrow()
    await audit(trx, caller, 'admin.save', `admin:${input.address}`, {
      before: before && before.removed_at === null ? { role: before.role } : null,
      after: { role: input.role },
    })
    return present(row)
  })
}

/** Removes a console operator: their sessions end at once. */
export async function removeAdmin(db: Database, caller: AdminCaller, address: string): Promise<{ address: string }> {
  await db.transaction().execute(async (trx) => {
    const before = await editable(trx, caller, address)
    if (!before || before.removed_at !== null) throw new AppError(Code.NOT_FOUND, 'admin.unknownOperator')
    const now = new Date()
    await trx.updateTable('admins').set({ removed_at: now, updated_at: now }).where('address', '=', address).execute()
    await trx
      .updateTable('admin_sessions')
      .set({ revoked_at: now })
      .where('address', '=', address)
      .where('revoked_at', 'is', null)
      .execute()
    await audit(trx, caller, 'admin.remove', `admin:${address}`, { before: { role: before.role } })
  })
  return { address }
}
