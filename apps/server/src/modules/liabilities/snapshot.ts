// Proof-of-liabilities snapshots (docs/proof-of-liabilities-server.md): what every user is owed
// (./owed.ts), taken in one REPEATABLE READ transaction, salted, shuffled, hashed into the Merkle sum tree of format v1
// (./tree.ts) while the rows stream in, stored, and published in one SPL Memo transaction (./publish.ts).
import { randomBytes } from 'node:crypto'
import { Code, type LiabilityProof, type LiabilityRoot } from '@solpledge/contract'
import { sql, type Transaction } from 'kysely'
import { ownerTokenBalancesAt } from '../../chain/token.ts'
import type { Database } from '../../db/index.ts'
import type { DB } from '../../db/schema.ts'
import { AppError } from '../../lib/app-error.ts'
import type { Platform } from '../../platform.ts'
import { listAssets } from '../assets/index.ts'
import { owedRows } from './owed.ts'
import { emptyNode, FORMAT, nodeBytes, nodeJson, siblingPositions, TreeBuilder } from './tree.ts'

/** Nodes per stored chunk of an inner level: 1024 nodes of two assets are 64 KiB. */
export const CHUNK_NODES = 1024
/** Leaves read from the cursor and written per statement. */
export const DEFAULT_BATCH = 5000
/** Snapshots whose leaves and nodes are kept (their roots are kept forever). */
export const KEEP_SNAPSHOTS = 31

export interface SnapshotOptions {
  /** 'settlement:<day>': at most one snapshot per trigger, whatever the instances (null: an operator's request). */
  trigger?: string | null
  batchSize?: number
  chunkNodes?: number
  /** Filled with the milliseconds spent in each phase (bench/proof). */
  timings?: Record<string, number>
}

/** Runs `work`, adding its time to `phase` of `timings` when there are timings to fill. */
async function timed<T>(timings: Record<string, number> | undefined, phase: string, work: () => Promise<T> | T) {
  if (!timings) return work()
  const started = performance.now()
  try {
    return await work()
  } finally {
    timings[phase] = (timings[phase] ?? 0) + performance.now() - started
  }
}

/** The address that signs the memo: the treasury when its key is here (TREASURY_KEY), otherwise the hot wallet. */
export const memoSigner = (platform: Platform) => platform.treasury.key ?? platform.hotWallet

export const memoText = (id: string, root: { hash: string; sums: string[] }) =>
  `${FORMAT}:${id}:${root.hash}:${root.sums.join(',')}`

/**
 * Takes a snapshot and returns its id, or null when its trigger already has one. One REPEATABLE READ transaction: every
 * statement sees the database as it was at the first, so settlement batches and trades committing meanwhile are either
 * wholly in or wholly out, and a crash leaves nothing. The reserves are read from the chain at one slot in it.
 */
export async function takeSnapshot(db: Database, platform: Platform, options: SnapshotOptions = {}) {
  const trigger = options.trigger ?? null
  const batchSize = options.batchSize ?? DEFAULT_BATCH
  const assets = (await listAssets(db)).filter((asset) => asset.mint)
  try {
    return await db
      .transaction()
      .setIsolationLevel('repeatable read')
      .execute(async (trx) => {
        // The big sort (every user by a random key) in memory where it fits; no JIT for one-off statements.
        await sql`select set_config('work_mem', '256MB', true), set_config('jit', 'off', true)`.execute(trx)
        const start = await sql<{ id: string; taken_at: Date; taken: boolean }>`
          select nextval(pg_get_serial_sequence('liability_snapshots', 'id'))::text as id, now() as taken_at,
            exists (select 1 from liability_snapshots where trigger = ${trigger}) as taken`.execute(trx)
        const { id, taken_at: takenAt, taken } = start.rows[0] as { id: string; taken_at: Date; taken: boolean }
        if (taken) return null
        const reserves = await timed(options.timings, 'reserves', () => readReserves(platform, assets))
        const chunkNodes = options.chunkNodes ?? CHUNK_NODES
        const root = await buildTree(trx, id, assets, batchSize, chunkNodes, options.timings)
        const json = nodeJson(root.root)
        const signer = memoSigner(platform).address
        await trx
          .insertInto('liability_snapshots')
          .values({
            id,
            trigger,
            taken_at: takenAt,
            slot: reserves.slot.toString(),
            assets: JSON.stringify(assets.map((a) => ({ coin: a.code, decimals: a.decimals }))),
            leaf_count: String(root.leaves),
            chunk_nodes: chunkNodes,
            root_hash: json.hash,
            root_sums: JSON.stringify(json.sums),
            reserves: JSON.stringify(reserves.list),
            memo: memoText(id, json),
            signer,
          })
          .execute()
        return id
      })
  } catch (error) {
    // Another instance took the same trigger's snapshot meanwhile: unique violation, or a serialization failure when
    // its row committed after this transaction's snapshot.
    const code = (error as { code?: unknown } | null)?.code
    if (trigger !== null && (code === '23505' || code === '40001')) return null
    throw error
  }
}

async function readReserves(platform: Platform, assets: { code: string; mint: string | null }[]) {
  const wallets = [platform.treasury.address, platform.hotWallet.address]
  const { slot, balances } = await ownerTokenBalancesAt(
    platform.chain,
    assets.flatMap((asset) => wallets.map((owner) => ({ owner, mint: asset.mint as string }))),
  )
  const list = assets.map((asset, i) => {
    const [treasury = 0n, hotWallet = 0n] = balances.slice(2 * i, 2 * i + 2)
    return {
      coin: asset.code,
      treasury: treasury.toString(),
      hot_wallet: hotWallet.toString(),
      holdings: (treasury + hotWallet).toString(),
    }
  })
  return { slot, list }
}

/**
 * Streams every user with a liability through a cursor, in a random order (by SHA-256 of a secret drawn now and the
 * user id: unpredictable, and forgotten when this returns), gives each a fresh random salt, stores the leaves batch by
 * batch and hashes the tree as they come (memory flat in the number of users).
 */
async function buildTree(
  trx: Transaction<DB>,
  id: string,
  assets: { code: string }[],
  batchSize: number,
  chunkNodes: number,
  timings?: Record<string, number>,
) {
  const order = randomBytes(32).toString('hex')
  const amounts = sql.join(
    assets.map((asset) => sql`coalesce(sum(o.amount) filter (where o.asset = ${sql.lit(asset.code)}), 0)::text`),
  )
  const codes = sql.join(assets.map((asset) => sql.lit(asset.code)))
  // DECLARE takes no bind parameters: the values above are literals (asset codes and a hex string).
  await sql`
    declare pol_leaves no scroll cursor for
    select o.user_id::text as user_id, u.address, array[${amounts}] as amounts
    from (${owedRows()}) o join users u on u.id = o.user_id
    where o.asset in (${codes})
    group by o.user_id, u.address
    having sum(o.amount) > 0
    order by sha256(decode(${sql.lit(order)}, 'hex') || int8send(o.user_id))`.execute(trx)
  // The snapshot's own partition, filled without indexes; attaching it builds them in bulk (./migrations/0019).
  const partition = sql.table(`liability_leaves_${id}`)
  await sql`create table ${partition} (like liability_leaves, check (snapshot_id = ${sql.lit(id)}::bigint))`.execute(
    trx,
  )
  const tree = new TreeBuilder(assets.length, chunkNodes)
  const node = nodeBytes(assets.length)
  // The users fetched whose leaves are not stored yet (the last chunk of a batch waits for the next batch's users).
  let users: string[] = []
  let index = 0
  let fetches = 0
  let hashing: ReturnType<TreeBuilder['take']> | null = null
  const store = async ({ leaves, nodes }: Awaited<ReturnType<TreeBuilder['take']>>) => {
    const count = leaves.reduce((sum, chunk) => sum + chunk.count, 0)
    if (count > 0) {
      // Binary parameters: the users' ids, their 64 bytes (address ‖ salt) and their leaves, cut in SQL.
      const userBytes = Buffer.concat(leaves.map((chunk) => chunk.users))
      const leafBytes = Buffer.concat(leaves.map((chunk) => chunk.leaves))
      await timed(timings, 'store leaves', () =>
        sql`
        insert into ${partition} (snapshot_id, leaf_index, user_id, salt, node)
        select ${id}::bigint, ${index}::bigint + i - 1, u,
          substring(${userBytes}::bytea from (64 * i - 31)::int for 32),
          substring(${leafBytes}::bytea from (${node}::int * (i - 1) + 1)::int for ${node}::int)
        from unnest(${users.slice(0, count)}::bigint[]) with ordinality as l(u, i)`.execute(trx),
      )
      users = users.slice(count)
      index += count
    }
    if (nodes.length > 0)
      await timed(timings, 'store nodes', () =>
        trx
          .insertInto('liability_nodes')
          .values(nodes.map(({ level, chunk, nodes }) => ({ snapshot_id: id, level, chunk, nodes })))
          .execute(),
      )
  }
  for (;;) {
    const { rows } = await timed(timings, fetches++ === 0 ? 'sort and first fetch' : 'fetch', () =>
      sql<{ user_id: string; address: string; amounts: string[] }>`
        fetch forward ${sql.lit(batchSize)} from pol_leaves`.execute(trx),
    )
    if (rows.length === 0) break
    await timed(timings, 'leaf inputs', () => {
      for (const row of rows) {
        users.push(row.user_id)
        tree.push(row.address, row.amounts)
      }
    })
    // The workers hash this batch while the last one is stored and the next one fetched.
    const previous = hashing
    if (previous) await store(await timed(timings, 'hashing (waited)', () => previous))
    hashing = tree.take()
    hashing.catch(() => undefined)
  }
  if (hashing) await store(await hashing)
  await sql`close pol_leaves`.execute(trx)
  const root = await timed(timings, 'hashing (waited)', () => tree.finish())
  await store(await tree.take())
  await timed(timings, 'attach (indexes)', () =>
    sql`alter table liability_leaves attach partition ${partition} for values in (${sql.lit(id)})`.execute(trx),
  )
  return root
}

type SnapshotRow = {
  id: string
  taken_at: Date
  slot: string
  assets: { coin: string; decimals: number }[]
  leaf_count: string
  root_hash: string
  root_sums: string[]
  reserves: LiabilityRoot['reserves']
  status: string
  signature: string | null
  purged_at: Date | null
  chunk_nodes: number
}

const snapshotColumns = [
  'id',
  'taken_at',
  'slot',
  'assets',
  'leaf_count',
  'root_hash',
  'root_sums',
  'reserves',
  'status',
  'signature',
  'purged_at',
  'chunk_nodes',
] as const

/** The API's view of a snapshot: the signature only once the memo is confirmed. */
function common(row: SnapshotRow) {
  return {
    snapshot_id: row.id,
    taken_at: new Date(row.taken_at).toISOString(),
    slot: Number(row.slot),
    assets: row.assets,
    root: { hash: row.root_hash, sums: row.root_sums },
    signature: row.status === 'published' ? row.signature : null,
  }
}

/** Snapshot `id`, or the latest. */
const findSnapshot = (db: Database, id?: string) =>
  db
    .selectFrom('liability_snapshots')
    .select(snapshotColumns)
    .$if(id !== undefined, (qb) => qb.where('id', '=', id as string))
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst() as Promise<SnapshotRow | undefined>

export async function snapshotRoot(db: Database, id?: string): Promise<LiabilityRoot | null> {
  const row = await findSnapshot(db, id)
  return row ? { ...common(row), reserves: row.reserves } : null
}

/**
 * The user's inclusion proof in snapshot `id` (the latest by default): three indexed reads whatever the number of
 * users — the snapshot, the user's leaf with its sibling leaf, and one slice of one chunk per inner level.
 */
export async function inclusionProof(db: Database, userId: string, id?: string): Promise<LiabilityProof> {
  const notIn = () => new AppError(Code.NOT_FOUND, 'error.notInSnapshot')
  const snapshot = await findSnapshot(db, id)
  if (!snapshot || snapshot.purged_at !== null) throw notIn()
  const leaf = await db
    .selectFrom('liability_leaves')
    .select(['leaf_index', 'salt', 'node'])
    .where('snapshot_id', '=', snapshot.id)
    .where('user_id', '=', userId)
    .executeTakeFirst()
  if (!leaf) throw notIn()
  const size = nodeBytes(snapshot.assets.length)
  const positions = siblingPositions(Number(snapshot.leaf_count), Number(leaf.leaf_index))
  const [leafSibling = null, ...above] = positions
  const upper = above.filter((at) => at !== null)
  const chunkNodes = snapshot.chunk_nodes
  const slices = new Map<number, Uint8Array>()
  await Promise.all([
    leafSibling &&
      db
        .selectFrom('liability_leaves')
        .select('node')
        .where('snapshot_id', '=', snapshot.id)
        .where('leaf_index', '=', String(leafSibling[1]))
        .executeTakeFirstOrThrow()
        .then((row) => slices.set(0, row.node)),
    upper.length > 0 &&
      sql<{ level: number; node: Uint8Array }>`
        select n.level, substring(n.nodes from w.offset_ for ${size}) as node
        from liability_nodes n
        join (values ${sql.join(
          upper.map(
            ([level, index]) =>
              sql`(${level}::int, ${Math.floor(index / chunkNodes)}::int, ${(index % chunkNodes) * size + 1}::int)`,
          ),
        )}) as w(level, chunk, offset_) on n.level = w.level and n.chunk = w.chunk
        where n.snapshot_id = ${snapshot.id}`
        .execute(db)
        .then(({ rows }) => {
          for (const row of rows) slices.set(row.level, row.node)
        }),
  ])
  const empty = nodeJson(emptyNode(snapshot.assets.length))
  const own = nodeJson(leaf.node)
  return {
    ...common(snapshot),
    salt: Buffer.from(leaf.salt).toString('hex'),
    amounts: own.sums,
    leaf_index: Number(leaf.leaf_index),
    siblings: positions.map((at) => {
      if (at === null) return empty
      const node = slices.get(at[0])
      if (!node || node.length !== size) throw new Error(`pol: snapshot ${snapshot.id} lacks a node of level ${at[0]}`)
      return nodeJson(node)
    }),
  }
}
