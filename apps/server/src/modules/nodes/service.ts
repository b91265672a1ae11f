// Nodes (SPEC node levels): a user buys a node of a configured level, paid in USDT from the available balance to the
// system account 'node_sales'. Each level has a supply cap that concurrent purchases can never exceed.
import type { api, DataOf, UserNode } from '@solpledge/contract'
import { type Selectable, sql } from 'kysely'
import type { Database } from '../../db/index.ts'
import type { UserNodesTable } from '../../db/schema.ts'
import { invalid, refuse } from '../../lib/app-error.ts'
import { getBusinessConfig } from '../config/service.ts'
import { systemAccount, transfer, userAccount } from '../ledger/service.ts'

const USDT = 'USDT'

function present(row: Selectable<UserNodesTable>): UserNode {
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

/** The configured levels with how many nodes of each are sold and remain. */
export async function nodeLevels(db: Database): Promise<DataOf<typeof api.nodeLevel>> {
  const [config, counts] = await Promise.all([
    getBusinessConfig(db),
    db
      .selectFrom('user_nodes')
      .select(['level', (eb) => eb.fn.countAll<string>().as('n')])
      .groupBy('level')
      .execute(),
  ])
  const sold = new Map(counts.map((c) => [c.level, Number(c.n)]))
  return {
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

/**
 * Buys a node of `level` for the user at the current configuration's price, in one transaction: the node row and the
 * payment (available → 'node_sales') are stored together or not at all.
 *
 * Purchases of the same level are serialized by a transaction-scoped advisory lock on the level (released at commit
 * or rollback), taken before counting: under read committed the count that follows sees every purchase committed
 * before the lock was granted, so the supply cap and the one-per-user rule hold under any concurrency. There is no
 * row to lock per level (levels live in the configuration's JSON), and the lock leaves purchases of other levels
 * free. PGlite runs one transaction at a time, where the lock is granted at once.
 */
export async function buyNode(db: Database, user: { id: string }, levelCode: string): Promise<UserNode> {
  const level = (await getBusinessConfig(db)).nodeLevels.find((l) => l.code === levelCode)
  if (!level) throw invalid('node.unknownLevel')
  const row = await db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(hashtext(${`node:${level.code}`}))`.execute(trx)
    const sold = await trx
      .selectFrom('user_nodes')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('level', '=', level.code)
      .executeTakeFirstOrThrow()
    if (Number(sold.n) >= level.supplyCap) throw refuse('node.soldOut')
    if (level.onePerUser) {
      const held = await trx
        .selectFrom('user_nodes')
        .select('id')
        .where('user_id', '=', user.id)
        .where('level', '=', level.code)
        .limit(1)
        .executeTakeFirst()
      if (held) throw refuse('node.alreadyHeld')
    }
    const row = await trx
      .insertInto('user_nodes')
      .values({
        user_id: user.id,
        level: level.code,
        price_usdt: level.priceUsdt,
        power_bonus_bps: level.powerBonusBps,
        dividend_weight: level.dividendWeight,
      })
      .returningAll()
      .executeTakeFirstOrThrow()
    await transfer(trx, {
      debit: await userAccount(trx, user.id, USDT, 'available'),
      credit: await systemAccount(trx, USDT, 'node_sales'),
      asset: USDT,
      amount: BigInt(level.priceUsdt),
      type: 'node_purchase',
      key: `node:${row.id}`,
      reference: `node:${row.id}`,
    })
    return row
  })
  return present(row)
}

/** The user's nodes, newest first. */
export async function myNodes(db: Database, userId: string): Promise<{ list: UserNode[] }> {
  const rows = await db
    .selectFrom('user_nodes')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('id', 'desc')
    .execute()
  return { list: rows.map(present) }
}
