// The operator allow-list: ADMIN_ADDRESSES entries (source 'config', set again at every start and not editable in
// the console), operators added by an admin in the console (source 'console') and the local chain's first sign-in
// (source 'local'). Removed operators keep their row with removed_at, so the audit log's names stay meaningful.
import { type AdminRole, type AdminUser, Code } from '@solpledge/contract'
import type { Selectable } from 'kysely'
import type { Database } from '../../db/index.ts'
import type { AdminsTable } from '../../db/schema.ts'
import { AppError, invalid, refuse } from '../../lib/app-error.ts'
import { isWalletAddress } from '../auth/index.ts'
import { type AuditActor, audit } from './audit.ts'
import type { ChangeKind } from './changes.ts'
import { weakensAllowList } from './four-eyes.ts'

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

type AdminState = { role: AdminRole; source: AdminsTable['source'] } | null

/**
 * The operator's entry (null: not on the list), locked. A proposal about one's own entry or an ADMIN_ADDRESSES entry
 * is refused.
 */
async function entryState(trx: Database, caller: AuditActor, address: string, proposing: boolean): Promise<AdminState> {
  if (!isWalletAddress(address)) throw invalid('auth.invalidAddress')
  if (proposing && address === caller.address) throw refuse('admin.notSelf')
  const row = await trx.selectFrom('admins').selectAll().where('address', '=', address).forUpdate().executeTakeFirst()
  if (!row || row.removed_at !== null) return null
  if (proposing && row.source === 'config') throw refuse('admin.configManaged')
  return { role: row.role, source: row.source }
}

/**
 * Adds an operator (or brings a removed one back) or changes a console operator's role. Once two admins exist,
 * adding anyone, raising a role or demoting one of the last two admins waits for a second admin (changes.ts).
 */
export const adminSave: ChangeKind<{ address: string; role: AdminRole }, AdminState> = {
  kind: 'admin.save',
  target: (input) => `admin:${input.address}`,
  state: (trx, caller, input, proposing) => entryState(trx, caller, input.address, proposing),
  weakens: (before, input, admins) => weakensAllowList(before?.role ?? null, input.role, admins),
  view: (before, input) => ({ before: { role: before?.role ?? null }, after: { role: input.role } }),
  async apply(trx, caller, input, before, approval) {
    await trx
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
      .execute()
    await audit(trx, caller, 'admin.save', `admin:${input.address}`, {
      before: before ? { role: before.role } : null,
      after: { role: input.role },
      ...approval,
    })
  },
}

/**
 * Removes a console operator: their sessions end at once. Once two admins exist, removing one of the last two waits
 * for a second admin (else one admin could remove the other and then act alone).
 */
export const adminRemove: ChangeKind<{ address: string }, AdminState> = {
  kind: 'admin.remove',
  target: (input) => `admin:${input.address}`,
  async state(trx, caller, input, proposing) {
    const state = await entryState(trx, caller, input.address, proposing)
    if (proposing && !state) throw new AppError(Code.NOT_FOUND, 'admin.unknownOperator')
    return state
  },
  weakens: (before, _input, admins) => weakensAllowList(before?.role ?? null, null, admins),
  view: (before) => ({ before: { role: before?.role ?? null }, after: { role: null } }),
  async apply(trx, caller, { address }, before, approval) {
    const now = new Date()
    await trx.updateTable('admins').set({ removed_at: now, updated_at: now }).where('address', '=', address).execute()
    await trx
      .updateTable('admin_sessions')
      .set({ revoked_at: now })
      .where('address', '=', address)
      .where('revoked_at', 'is', null)
      .execute()
    await audit(trx, caller, 'admin.remove', `admin:${address}`, {
      before: { role: before?.role ?? null },
      ...approval,
    })
  },
}
