import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Database } from '../src/db/index.ts'
import { AppError } from '../src/lib/app-error.ts'
import { checkInvariants, systemAccount, transfer, userAccount } from '../src/modules/ledger/service.ts'
import { dbKind, freshDatabase } from './helpers.ts'

const ASSETS = ['USDT', 'PLG']
/** Per asset: 3 users × (available, locked) and 2 system accounts. */
const ACCOUNTS = 8
const SPECS = 30

// A transfer is chosen by index among SPECS generated ones; an index drawn again is a retry with the same key and
// content. Amounts are mostly small, some huge (beyond any user's balance until a system account pays them in),
// bounded so that system accounts stay within numeric(38,0).
const specArb = fc.record({
  asset: fc.nat({ max: ASSETS.length - 1 }),
  // Often from a system account (6, 7), so that users have money to move on.
  from: fc.oneof(fc.integer({ min: 6, max: 7 }), fc.nat({ max: 5 })),
  hop: fc.nat({ max: ACCOUNTS - 2 }),
  amount: fc.oneof(
    { weight: 4, arbitrary: fc.bigInt({ min: 1n, max: 500n }) },
    { weight: 1, arbitrary: fc.bigInt({ min: 10n ** 30n, max: 10n ** 35n }) },
  ),
})
// One transaction: usually one transfer, sometimes two that must succeed or fail together.
const opArb = fc.oneof(
  { weight: 9, arbitrary: fc.array(fc.nat({ max: SPECS - 1 }), { minLength: 1, maxLength: 1 }) },
  { weight: 1, arbitrary: fc.array(fc.nat({ max: SPECS - 1 }), { minLength: 2, maxLength: 2 }) },
)
const batchesArb = fc.array(fc.array(opArb, { minLength: 1, maxLength: 16 }), { minLength: 1, maxLength: 5 })

interface Account {
  id: string
  user: boolean
}

describe(`ledger properties (${dbKind})`, () => {
  let db: Database
  let drop: () => Promise<void>
  beforeAll(async () => {
    ;({ db, drop } = await freshDatabase())
    await db
      .insertInto('assets')
      .values(ASSETS.map((code) => ({ code, symbol: code, decimals: 6 })))
      .execute()
  })
  afterAll(() => drop())

  let runs = 0
  /** Fresh accounts for one run, so that every run starts from zero balances. */
  async function accounts(run: number): Promise<Account[][]> {
    const users = await db
      .insertInto('users')
      .values([0, 1, 2].map((i) => ({ address: `run${run}-user${i}`, parent_id: null })))
      .returning('id')
      .execute()
    return Promise.all(
      ASSETS.map(async (asset) => [
        ...(
          await Promise.all(
            users.flatMap(({ id }) => [userAccount(db, id, asset, 'available'), userAccount(db, id, asset, 'locked')]),
          )
        ).map((id) => ({ id, user: true })),
        { id: await systemAccount(db, asset, `chain${run}`), user: false },
        { id: await systemAccount(db, asset, `fees${run}`), user: false },
      ]),
    )
  }

  it('concurrent transfers keep the books balanced and match a reference model', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(specArb, { minLength: SPECS, maxLength: SPECS }),
        batchesArb,
        async (specs, batches) => {
          const run = ++runs
          const books = await accounts(run)
          const inputs = specs.map((spec, i) => {
            const of = books[spec.asset] as Account[]
            return {
              debit: (of[spec.from] as Account).id,
              credit: (of[(spec.from + 1 + spec.hop) % ACCOUNTS] as Account).id,
              asset: ASSETS[spec.asset] as string,
              amount: spec.amount,
              type: 'admin_adjustment' as const,
              key: `run${run}:${i}`,
            }
          })
          const created = new Map<string, number>()
          for (const batch of batches) {
            const severalInBatch = batch.some((op) => op.length > 1)
            await Promise.all(
              batch.map(async (op) => {
                try {
                  const results = await db.transaction().execute(async (trx) => {
                    const out = []
                    for (const i of op) out.push(await transfer(trx, inputs[i] as (typeof inputs)[number]))
                    return out
                  })
                  op.forEach((i, n) => {
                    const key = `run${run}:${i}`
                    if (results[n]?.created) created.set(key, (created.get(key) ?? 0) + 1)
                  })
                } catch (error) {
                  // Refused for lack of money; or, on PostgreSQL, chosen as the victim of a deadlock, which only a
                  // transaction of several transfers can cause (each transfer alone locks in a stable order). Either
                  // way it rolled back as a whole.
                  const deadlock = severalInBatch && (error as { code?: string }).code === '40P01'
                  if (!(error instanceof AppError && error.key === 'common.insufficientBalance') && !deadlock)
                    throw error
                }
              }),
            )
            expect(await checkInvariants(db)).toEqual([])
          }

          // What the service reported matches what the database holds: each key made at most once, exactly the
          // reported ones stored, with their content.
          for (const times of created.values()) expect(times).toBe(1)
          const stored = await db
            .selectFrom('ledger_transfers')
            .select(['idempotency_key', 'debit_account_id', 'credit_account_id', 'amount'])
            .where('idempotency_key', 'like', `run${run}:%`)
            .execute()
          expect(new Set(stored.map((t) => t.idempotency_key))).toEqual(new Set(created.keys()))
          for (const t of stored) {
            const input = inputs.find((i) => i.key === t.idempotency_key)
            expect([t.debit_account_id, t.credit_account_id, BigInt(t.amount)]).toEqual([
              input?.debit,
              input?.credit,
              input?.amount,
            ])
          }
          // The reference model: zero balances with exactly the reported transfers applied.
          const model = new Map<string, bigint>()
          for (const input of inputs.filter((i) => created.has(i.key))) {
            model.set(input.debit, (model.get(input.debit) ?? 0n) - input.amount)
            model.set(input.credit, (model.get(input.credit) ?? 0n) + input.amount)
          }
          const all = books.flat()
          const balancesNow = async () =>
            new Map(
              (
                await db
                  .selectFrom('ledger_accounts')
                  .select(['id', 'balance'])
                  .where(
                    'id',
                    'in',
                    all.map((a) => a.id),
                  )
                  .execute()
              ).map((a) => [a.id, BigInt(a.balance)]),
            )
          const balances = await balancesNow()
          expect(balances).toEqual(new Map(all.map((a) => [a.id, model.get(a.id) ?? 0n])))
          for (const a of all) if (a.user) expect(balances.get(a.id)).toBeGreaterThanOrEqual(0n)

          // Retrying every transfer that was made, all at once, changes nothing.
          const retried = await Promise.all(
            inputs.filter((i) => created.has(i.key)).map((i) => db.transaction().execute((trx) => transfer(trx, i))),
          )
          expect(retried.every((r) => !r.created)).toBe(true)
          expect(await balancesNow()).toEqual(balances)
        },
      ),
      // No shrinking: a failing case replays concurrent batches on a shared database, so it is neither fast nor exact.
      { numRuns: 25, endOnFailure: true },
    )
  })
})
