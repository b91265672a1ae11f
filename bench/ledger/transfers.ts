// The ledger-transfer measurement of bench/ledger, shared with bench/trade (which compares its persisted orders with
// it in the same run): `transfer` between random users' available accounts, each in its own database transaction
// (ledger_transfer, with the BEGIN in the same write: insert the transfer and update the two balances in account id
// order; then COMMIT) through the server's tracking driver (db/transient.ts: the commit-outcome check; db/pg-driver.ts),
// from concurrent workers with one connection each, as pgbench has one per client.
import { randomInt } from 'node:crypto'
import { Kysely } from 'kysely'
import pg from 'pg'
import { migrate } from '../../apps/server/src/db/index.ts'
import type { DB } from '../../apps/server/src/db/schema.ts'
import { TrackingPostgresDialect } from '../../apps/server/src/db/transient.ts'
import { AppError } from '../../apps/server/src/lib/app-error.ts'
import { checkInvariants, systemAccount, transfer, userAccount } from '../../apps/server/src/modules/ledger/service.ts'
import { countListener } from '../../apps/server/src/modules/live/hub.ts'

/** What a stretch of transfers did: how many, in how long, and the CPU time (ms) of this process and of the cluster. */
export interface TransferStretch {
  made: number
  refused: number
  seconds: number
  nodeMs: number
  /** null when the cluster's CPU time cannot be read. */
  postgresMs: number | null
}

/**
 * Runs transfers on the empty database at `url` from `workers` loops for `seconds` (after migrating it and funding
 * `users` users), checks the ledger invariants, and returns transfers per second.
 */
export async function measureTransfers(options: Parameters<typeof openTransfers>[0] & { seconds: number }) {
  const transfers = await openTransfers(options)
  try {
    const stretch = await transfers.run(options.seconds)
    await transfers.check()
    return {
      tps: stretch.made / stretch.seconds,
      made: stretch.made,
      refused: stretch.refused,
      cpu: cpuPerTransfer(stretch),
    }
  } finally {
    await transfers.close()
  }
}

/** CPU time per transfer (µs) of this process and of the cluster (null when it cannot be read). */
export function cpuPerTransfer({ made, nodeMs, postgresMs }: Pick<TransferStretch, 'made' | 'nodeMs' | 'postgresMs'>) {
  const perTransfer = (ms: number) => Math.round((ms * 1000) / Math.max(1, made))
  return { node: perTransfer(nodeMs), postgres: postgresMs === null ? null : perTransfer(postgresMs) }
}

/**
 * Migrates the empty database at `url`, funds `users` users, and returns `run(seconds)`, which makes transfers from
 * `workers` loops for that long (as many stretches as the caller likes: bench/ledger alternates them with pgbench),
 * `check()` (the ledger invariants) and `close()`.
 */
export async function openTransfers(options: {
  url: string
  workers: number
  users: number
  /** Every user's live topic listened to by an instance (their balance messages written), as if all were in the app. */
  listened?: boolean
  /** The cluster's CPU time so far (ms), for the split of a transfer's CPU time; bench/postgres.ts clusterCpuMs. */
  clusterCpuMs?: () => number | null
}) {
  const { workers, users } = options
  const pool = new pg.Pool({ connectionString: options.url, max: workers })
  const db = new Kysely<DB>({ dialect: new TrackingPostgresDialect({ pool }) })
  try {
    await migrate(db)
    await db.insertInto('assets').values({ code: 'USDT', symbol: 'USDT', decimals: 6 }).execute()
    const ids = await db
      .insertInto('users')
      .values(Array.from({ length: users }, (_, i) => ({ address: `bench-user-${i}`, parent_id: null })))
      .returning('id')
      .execute()
    const chain = await systemAccount(db, 'USDT', 'chain')
    const accounts: string[] = []
    for (const { id } of ids) {
      accounts.push(await userAccount(db, id, 'USDT', 'available'))
      if (options.listened) await countListener(db, `user:${id}`)
    }
    // Enough for every transfer of the run: no refusals, every transaction commits.
    await db.transaction().execute(async (trx) => {
      for (const account of accounts)
        await transfer(trx, {
          debit: chain,
          credit: account,
          asset: 'USDT',
          amount: 10n ** 15n,
          type: 'deposit',
          key: `fund:${account}`,
        })
    })
    let sequence = 0
    const nodeCpu = () => {
      const { user, system } = process.cpuUsage()
      return (user + system) / 1000
    }
    const run = async (seconds: number): Promise<TransferStretch> => {
      let made = 0
      let refused = 0
      const until = Date.now() + seconds * 1000
      const worker = async () => {
        while (Date.now() < until) {
          const from = randomInt(accounts.length)
          const to = (from + 1 + randomInt(accounts.length - 1)) % accounts.length
          const input = {
            debit: accounts[from] as string,
            credit: accounts[to] as string,
            asset: 'USDT',
            amount: BigInt(1 + randomInt(1000)),
            type: 'admin_adjustment' as const,
            key: `bench:${sequence++}`,
          }
          try {
            await db.transaction().execute((trx) => transfer(trx, input))
            made++
          } catch (error) {
            if (!(error instanceof AppError)) throw error
            refused++
          }
        }
      }
      const [node0, cluster0] = [nodeCpu(), options.clusterCpuMs?.() ?? null]
      const started = performance.now()
      await Promise.all(Array.from({ length: workers }, worker))
      const elapsed = (performance.now() - started) / 1000
      const [node1, cluster1] = [nodeCpu(), options.clusterCpuMs?.() ?? null]
      return {
        made,
        refused,
        seconds: elapsed,
        nodeMs: node1 - node0,
        postgresMs: cluster0 === null || cluster1 === null ? null : cluster1 - cluster0,
      }
    }
    const check = async () => {
      const violations = await checkInvariants(db)
      if (violations.length > 0) throw new Error(`ledger invariants broken: ${violations.join('; ')}`)
    }
    return { run, check, close: () => db.destroy() }
  } catch (error) {
    await db.destroy()
    throw error
  }
}
