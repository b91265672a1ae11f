// Nodes (docs/product.md#nodes): a user buys a node of a configured level, paid in USDT from the available balance (or
// by a payment intent, which credits the balance first) to the system account 'node_sales'. Each level has a supply cap
// that concurrent purchases can never exceed. A node adds power: its price × the level's power bonus.
import type { api, BusinessConfig, DataOf, UserNode } from '@solpledge/contract'
import { type Selectable, sql, type Transaction } from 'kysely'
import type { Database } from '../../db/index.ts'
import type { DB, UserNodesTable } from '../../db/schema.ts'
import { invalid, refuse } from '../../lib/app-error.ts'
import type { Commit } from '../../lib/commit.ts'
import { utcDay } from '../../lib/day.ts'
import { requireAsset } from '../assets/index.ts'
import { getBusinessConfig } from '../config/index.ts'
import { systemAccount, transfer, userAccount } from '../ledger/index.ts'
import { addNewPower } from '../power/index.ts'
import { valuation } from '../trade/index.ts'

/** Nodes are priced and paid in USDT. */
export const NODE_COIN = 'USDT'

export function presentNode(row: Selectable<UserNodesTable>): UserNode {
  return {
    id: row.id,
    level: row.level,
    price_usdt: row.price_usdt,
    power_bonus_bps: row.power_bonus_bps,
    dividend_weight: row.dividend_weight,
    dividends: row.dividends,
    created_at: row.created_at.toISOString(),
  }
}

/**
 * The configured levels with how many nodes of each are sold and remain, and the node pool they share: what it pays a
 * day, the weight of the nodes sold and the valuation price of its token (the app's estimate of a node's dividends).
 */
export async function nodeLevels(db: Database, product: string): Promise<DataOf<typeof api.nodeLevel>> {
  const [{ config, price }, counts, asset] = await Promise.all([
    valuation(db, product),
    db
      .selectFrom('user_nodes')
      .select(['level', (eb) => eb.fn.countAll<string>().as('n'), sql<string>`sum(dividend_weight)`.as('weight')])
      .groupBy('level')
      .execute(),
    requireAsset(db, product),
  ])
  const sold = new Map(counts.map((c) => [c.level, Number(c.n)]))
  const totalWeight = counts.reduce((sum, c) => sum + BigInt(c.weight), 0n)
  return {
    pool: {
      coin: asset.code,
      decimals: asset.decimals,
      daily: config.nodePoolDaily,
      total_weight: totalWeight.toString(),
      price: price.toString(),
    },
    list: config.nodeLevels.map((level) => {
      const n = sold.get(level.code) ?? 0
      return {
        code: level.code,
        price_usdt: level.priceUsdt,
        supply_cap: level.supplyCap,
        sold: n,
        remaining: Math.max(0, level.supplyCap - n),
        power_bonus_bps: level.powerBonusBps,
        dividend_weight: level.dividendWeight,
        one_per_user: level.onePerUser,
      }
    }),
  }
}

type NodeLevel = BusinessConfig['nodeLevels'][number]

/** The configured level `code`, or undefined when the configuration does not offer it (now). */
export async function findNodeLevel(db: Database, code: string): Promise<NodeLevel | undefined> {
  return (await getBusinessConfig(db)).nodeLevels.find((l) => l.code === code)
}

/** A node's power: its price × the level's power bonus (USDT base units, rounded down). */
export const nodePower = (priceUsdt: bigint, powerBonusBps: number) => (priceUsdt * BigInt(powerBonusBps)) / 10_000n

/** Why the user cannot have a node of `level` now ('node.soldOut', 'node.alreadyHeld'), or null. Reads only. */
export async function nodeRefusal(
  db: Database,
  userId: string,
  level: NodeLevel,
): Promise<'node.soldOut' | 'node.alreadyHeld' | null> {
  const sold = await db
    .selectFrom('user_nodes')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('level', '=', level.code)
    .executeTakeFirstOrThrow()
  if (Number(sold.n) >= level.supplyCap) return 'node.soldOut'
  if (level.onePerUser) {
    const held = await db
      .selectFrom('user_nodes')
      .select('id')
      .where('user_id', '=', userId)
      .where('level', '=', level.code)
      .limit(1)
      .executeTakeFirst()
    if (held) return 'node.alreadyHeld'
  }
  return null
}

/**
 * The one node purchase, inside the caller's transaction: the node row, the payment (the user's available USDT →
 * 'node_sales') and the node's power for the user and every ancestor, together or not at all. `priceUsdt` is what
 * the user pays (the level's price now, or the price a payment intent fixed when it was made).
 *
 * Purchases of the same level are serialized by a transaction-scoped advisory lock on the level (released at commit
 * or rollback), taken before counting: under read committed the count that follows sees every purchase committed
 * before the lock was granted, so the supply cap and the one-per-user rule hold under any concurrency. There is no
 * row to lock per level (levels live in the configuration's JSON), and the lock leaves purchases of other levels
 * free. PGlite runs one transaction at a time, where the lock is granted at once.
 *
 * A sold-out level or a level already held is refused (AppError) before anything is written, so a caller that has
 * written other things in the transaction (a payment intent's deposit) may catch the refusal and still commit them.
 */
export async function purchaseNode(
  trx: Transaction<DB>,
  userId: string,
  level: NodeLevel,
  priceUsdt: bigint = BigInt(level.priceUsdt),
): Promise<Selectable<UserNodesTable>> {
  await sql`select pg_advisory_xact_lock(hashtext(${`node:${level.code}`}))`.execute(trx)
  const refusal = await nodeRefusal(trx, userId, level)
  if (refusal) throw refuse(refusal)
  const row = await trx
    .insertInto('user_nodes')
    .values({
      user_id: userId,
      level: level.code,
      price_usdt: priceUsdt.toString(),
      power_bonus_bps: level.powerBonusBps,
      dividend_weight: level.dividendWeight,
    })
    .returningAll()
    .executeTakeFirstOrThrow()
  const power = nodePower(priceUsdt, level.powerBonusBps)
  // The accounts found now: the payment, a last write, is then one statement.
  const debit = await userAccount(trx, userId, NODE_COIN, 'available')
  const credit = await systemAccount(trx, NODE_COIN, 'node_sales')
  await addNewPower(trx, { userId, day: utcDay(), source: 'node', sourceId: row.id, power }, async () =>
    transfer(trx, {
      debit,
      credit,
      asset: NODE_COIN,
      amount: priceUsdt,
      type: 'node_purchase',
      key: `node:${row.id}`,
      reference: `node:${row.id}`,
    }),
  )
  return row
}

/** Buys a node of `level` for the user from the asset balance, at the current configuration's price. */
export async function buyNode(
  db: Database,
  commit: Commit<UserNode>,
  user: { id: string },
  levelCode: string,
): Promise<UserNode> {
  const level = await findNodeLevel(db, levelCode)
  if (!level) throw invalid('node.unknownLevel')
  return commit(async (trx) => presentNode(await purchaseNode(trx, user.id, level)))
}

/** The user's nodes, newest first. */
export async function myNodes(db: Database, userId: string): Promise<{ list: UserNode[] }> {
  const rows = await db
    .selectFrom('user_nodes')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('id', 'desc')
    .execute()
  return { list: rows.map(presentNode) }
}
