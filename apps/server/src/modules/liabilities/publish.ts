// Publishing a snapshot's root: one SPL Memo transaction per snapshot, signed by the treasury (or, without its key,
// the hot wallet: ./snapshot.ts memoSigner) and paid by the hot wallet, sent by the withdrawal sender's rule — the
// signed bytes are stored before they are sent, a retry resends the same bytes (same signature: it lands at most once)
// and new bytes are prepared only when the chain proves the stored ones can never land. So a memo is never published
// twice, by retries or by several instances.

import { createKeyPairSignerFromBytes } from '@solana/kit'
import type { LiabilityRoot } from '@solpledge/contract'
import { sql } from 'kysely'
import { memoInstruction, payoutStatus, prepareTransaction, sendPrepared } from '../../chain/payout.ts'
import type { Database } from '../../db/index.ts'
import type { Platform } from '../../platform.ts'
import { KEEP_SNAPSHOTS, memoSigner, snapshotRoot, takeSnapshot } from './snapshot.ts'

export type PublishState = 'published' | 'pending'

/** One step of publishing snapshot `id`: 'published' once its memo transaction is confirmed. */
export async function publishSnapshot(db: Database, platform: Platform, id: string): Promise<PublishState> {
  const row = await db
    .selectFrom('liability_snapshots')
    .select(['status', 'memo', 'signer', 'signature', 'wire_transaction', 'last_valid_block_height'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow()
  if (row.status === 'published') return 'published'
  const confirmed = async (signature: string) => {
    await db
      .updateTable('liability_snapshots')
      .set({ status: 'published', published_at: sql`now()`, error: null })
      .where('id', '=', id)
      .where('signature', '=', signature)
      .execute()
    return 'published' as const
  }
  if (row.signature && row.wire_transaction && row.last_valid_block_height) {
    const state = await payoutStatus(platform.chain, row.signature, BigInt(row.last_valid_block_height))
    if (state === 'confirmed') return confirmed(row.signature)
    if (state === 'pending') {
      await sendPrepared(platform.chain, row.wire_transaction)
      return (await payoutStatus(platform.chain, row.signature, BigInt(row.last_valid_block_height))) === 'confirmed'
        ? confirmed(row.signature)
        : 'pending'
    }
    // 'expired' (can never land) or 'failed' (landed without its memo): new bytes replace them below.
  }
  const signer = memoSigner(platform)
  if (signer.address !== row.signer)
    throw new Error(`snapshot ${id} is to be signed by ${row.signer}, but this instance holds ${signer.address}`)
  const feePayer = await createKeyPairSignerFromBytes(platform.hotWallet.secretKey)
  const memoSignerKey = signer === platform.hotWallet ? feePayer : await createKeyPairSignerFromBytes(signer.secretKey)
  const prepared = await prepareTransaction(platform.chain, feePayer, [], [memoInstruction(row.memo, [memoSignerKey])])
  // Stored only over the bytes this step read: of two instances preparing at once, one stores and sends.
  const stored = await db
    .updateTable('liability_snapshots')
    .set({
      signature: prepared.signature,
      wire_transaction: prepared.wireTransaction,
      last_valid_block_height: prepared.lastValidBlockHeight.toString(),
      attempts: sql`attempts + 1`,
    })
    .where('id', '=', id)
    .where('status', '=', 'stored')
    .where((eb) =>
      row.signature === null ? eb('signature', 'is', null) : eb('signature', '=', row.signature as string),
    )
    .executeTakeFirst()
  if (stored.numUpdatedRows !== 1n) return 'pending'
  const sent = await sendPrepared(platform.chain, prepared.wireTransaction)
  if (!sent.sent) {
    await db
      .updateTable('liability_snapshots')
      .set({ error: sent.error.message.slice(0, 1000) })
      .where('id', '=', id)
      .execute()
    return 'pending'
  }
  const state = await payoutStatus(platform.chain, prepared.signature, prepared.lastValidBlockHeight)
  return state === 'confirmed' ? confirmed(prepared.signature) : 'pending'
}

/** Takes a snapshot now (an operator's request), tries once to publish it (the job retries), and answers its root. */
export async function snapshotNow(db: Database, platform: Platform): Promise<LiabilityRoot> {
  const id = (await takeSnapshot(db, platform)) as string
  await publishSnapshot(db, platform, id).catch(() => 'pending')
  return (await snapshotRoot(db, id)) as LiabilityRoot
}

/**
 * The periodic job: a snapshot after each daily settlement (the newest day done, once: trigger 'settlement:<day>';
 * outside the settlement's transactions), a publishing step for every snapshot not yet published, and the retention
 * of leaves and nodes (the newest KEEP_SNAPSHOTS snapshots keep theirs).
 */
export async function liabilitiesJob(
  db: Database,
  platform: Platform,
): Promise<{ taken: string | null; published: string[]; pending: string[] }> {
  const done = await db
    .selectFrom('settlement_runs')
    .select(sql<string | null>`max(day)::text`.as('day'))
    .where('status', '=', 'done')
    .executeTakeFirstOrThrow()
  let taken: string | null = null
  if (done.day !== null) {
    const trigger = `settlement:${done.day}`
    const exists = await db
      .selectFrom('liability_snapshots')
      .select('id')
      .where('trigger', '=', trigger)
      .executeTakeFirst()
    if (!exists) taken = await takeSnapshot(db, platform, { trigger })
  }
  const published: string[] = []
  const pending: string[] = []
  const open = await db
    .selectFrom('liability_snapshots')
    .select('id')
    .where('status', '=', 'stored')
    .orderBy('id')
    .execute()
  // One snapshot that cannot be published (the RPC, the signer's SOL) holds none of the others back; the first error
  // fails the pass, so the job's heartbeat shows it.
  const errors: unknown[] = []
  for (const { id } of open) {
    const state = await publishSnapshot(db, platform, id).catch((error: unknown) => {
      errors.push(error)
      return 'pending' as const
    })
    if (state === 'published') published.push(id)
    else pending.push(id)
  }
  await purgeOldSnapshots(db)
  if (errors.length > 0) throw errors[0]
  return { taken, published, pending }
}

/** Deletes the leaves and nodes of snapshots older than the newest KEEP_SNAPSHOTS (their roots stay). */
export async function purgeOldSnapshots(db: Database, keep = KEEP_SNAPSHOTS) {
  const old = await db
    .selectFrom('liability_snapshots')
    .select('id')
    .where('purged_at', 'is', null)
    .orderBy('id', 'desc')
    .offset(keep)
    .execute()
  for (const { id } of old)
    await db.transaction().execute(async (trx) => {
      await sql`drop table if exists ${sql.table(`liability_leaves_${id}`)}`.execute(trx)
      await trx.deleteFrom('liability_nodes').where('snapshot_id', '=', id).execute()
      await trx.updateTable('liability_snapshots').set({ purged_at: sql`now()` }).where('id', '=', id).execute()
    })
}
