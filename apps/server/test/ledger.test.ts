import { randomUUID } from 'node:crypto'
import { Code } from '@solpledge/contract'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Database } from '../src/db/index.ts'
import { type AccountSpec, accountIds, accountKey, transferMany } from '../src/modules/ledger/bulk.ts'
import {
  balances,
  checkInvariants,
  statement,
  systemAccount,
  type TransferInput,
  totals,
  transfer,
  userAccount,
} from '../src/modules/ledger/service.ts'
import { accountBalance, addOffChainAssets, dbKind, freshDatabase, newUser } from './helpers.ts'

describe(`ledger (${dbKind})`, () => {
  let db: Database
  let drop: () => Promise<void>
  beforeAll(async () => {
    ;({ db, drop } = await freshDatabase())
    await addOffChainAssets(db)
  })
  afterAll(() => drop())

  const run = (input: TransferInput) => db.transaction().execute((trx) => transfer(trx, input))
  const balanceOf = (id: string) => accountBalance(db, id)
  const transferCount = async () =>
    Number(
      (
        await db
          .selectFrom('ledger_transfers')
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    )
  const insufficient = { code: Code.FAIL, key: 'common.insufficientBalance' }

  /** A new user holding `amount` USDT in the available account, paid in from the system 'chain' account. */
  async function fundedUser(amount: bigint) {
    const user = await newUser(db)
    const chain = await systemAccount(db, 'USDT', 'chain')
    const available = await userAccount(db, user, 'USDT', 'available')
    await run({ debit: chain, credit: available, asset: 'USDT', amount, type: 'deposit', key: randomUUID() })
    return { user, chain, available }
  }

  it('creates an account once, also when asked for it many times at once', async () => {
    const user = await newUser(db)
    const ids = await Promise.all(Array.from({ length: 10 }, () => userAccount(db, user, 'USDT', 'locked')))
    expect(new Set(ids).size).toBe(1)
    expect(await userAccount(db, user, 'USDT', 'locked')).toBe(ids[0])
    expect(await userAccount(db, user, 'USDT', 'available')).not.toBe(ids[0])
    const fees = await Promise.all(Array.from({ length: 10 }, () => systemAccount(db, 'PLG', 'fees')))
    expect(new Set(fees).size).toBe(1)
    expect(await systemAccount(db, 'USDT', 'fees')).not.toBe(fees[0])
  })

  it('refuses a zero or negative amount as invalid input', async () => {
    const { chain, available } = await fundedUser(10n)
    for (const amount of [0n, -5n])
      await expect(
        run({ debit: available, credit: chain, asset: 'USDT', amount, type: 'trade_fee', key: randomUUID() }),
      ).rejects.toMatchObject({ code: Code.INVALID, key: 'error.invalidParams', params: { detail: 'amount' } })
    expect(await balanceOf(available)).toBe(10n)
  })

  it('moves an amount once: a retry with the same key returns the first transfer and changes nothing', async () => {
    const { user, chain, available } = await fundedUser(100n)
    const fees = await systemAccount(db, 'USDT', 'fees')
    const input = {
      debit: available,
      credit: fees,
      asset: 'USDT',
      amount: 30n,
      type: 'trade_fee' as const,
      key: randomUUID(),
    }
    const first = await run(input)
    expect(first.created).toBe(true)
    const count = await transferCount()
    const [feesBefore, chainBefore] = [await balanceOf(fees), await balanceOf(chain)]
    expect(await run({ ...input, reference: 'another reference' })).toEqual({ id: first.id, created: false })
    expect(await run(input)).toEqual({ id: first.id, created: false })
    expect(await transferCount()).toBe(count)
    expect(await balanceOf(available)).toBe(70n)
    expect([await balanceOf(fees), await balanceOf(chain)]).toEqual([feesBefore, chainBefore])
    expect((await balances(db, user)).USDT).toEqual({ available: 70n, locked: 0n })
  })

  it('throws when a key is reused for a different transfer', async () => {
    const { chain, available } = await fundedUser(100n)
    const input = {
      debit: available,
      credit: chain,
      asset: 'USDT',
      amount: 10n,
      type: 'trade_fee' as const,
      key: randomUUID(),
    }
    await run(input)
    for (const changed of [{ amount: 11n }, { type: 'withdraw_pay' as const }, { debit: chain, credit: available }])
      await expect(run({ ...input, ...changed })).rejects.toThrow(/idempotency key .* reused/)
    expect(await balanceOf(available)).toBe(90n)
  })

  it('refuses an insufficient balance and changes nothing', async () => {
    const { user, chain, available } = await fundedUser(50n)
    const count = await transferCount()
    const chainBefore = await balanceOf(chain)
    const key = randomUUID()
    await expect(
      run({ debit: available, credit: chain, asset: 'USDT', amount: 51n, type: 'withdraw_pay', key }),
    ).rejects.toMatchObject(insufficient)
    expect(await transferCount()).toBe(count)
    expect(await balanceOf(available)).toBe(50n)
    expect(await balanceOf(chain)).toBe(chainBefore)
    expect((await balances(db, user)).USDT).toEqual({ available: 50n, locked: 0n })
    // The refused key is free: the same transfer goes through once the money is there.
    await run({ debit: chain, credit: available, asset: 'USDT', amount: 1n, type: 'deposit', key: randomUUID() })
    expect(
      (await run({ debit: available, credit: chain, asset: 'USDT', amount: 51n, type: 'withdraw_pay', key })).created,
    ).toBe(true)
    expect(await balanceOf(available)).toBe(0n)
  })

  it('lets a system account go negative, never a user account (also not by a direct update)', async () => {
    const emission = await systemAccount(db, 'PLG', 'emission')
    const rewards = await systemAccount(db, 'PLG', 'rewards')
    await run({ debit: emission, credit: rewards, asset: 'PLG', amount: 7n, type: 'settlement', key: randomUUID() })
    expect(await balanceOf(emission)).toBe(-7n)
    const locked = await userAccount(db, await newUser(db), 'PLG', 'locked')
    await expect(
      run({ debit: locked, credit: rewards, asset: 'PLG', amount: 1n, type: 'withdraw_refund', key: randomUUID() }),
    ).rejects.toMatchObject(insufficient)
    await expect(
      db.updateTable('ledger_accounts').set({ balance: '-1' }).where('id', '=', locked).execute(),
    ).rejects.toMatchObject({ code: '23514' })
    expect(await balanceOf(locked)).toBe(0n)
  })

  it('refuses accounts of another asset and a transfer from an account to itself', async () => {
    const { available } = await fundedUser(10n)
    const plgChain = await systemAccount(db, 'PLG', 'chain')
    const count = await transferCount()
    await expect(
      run({ debit: available, credit: plgChain, asset: 'USDT', amount: 1n, type: 'withdraw_pay', key: randomUUID() }),
    ).rejects.toThrow(/not a USDT account/)
    await expect(
      run({ debit: available, credit: plgChain, asset: 'PLG', amount: 1n, type: 'withdraw_pay', key: randomUUID() }),
    ).rejects.toThrow(/not a PLG account/)
    await expect(
      run({ debit: available, credit: available, asset: 'USDT', amount: 1n, type: 'withdraw_pay', key: randomUUID() }),
    ).rejects.toThrow(/ledger_transfers_distinct_accounts/)
    expect(await transferCount()).toBe(count)
    expect(await balanceOf(available)).toBe(10n)
  })

  it('is all-or-nothing: when a later transfer of a transaction is refused, the earlier ones are undone', async () => {
    const { chain, available } = await fundedUser(10n)
    const locked = await userAccount(db, await newUser(db), 'USDT', 'locked')
    const count = await transferCount()
    await expect(
      db.transaction().execute(async (trx) => {
        await transfer(trx, {
          debit: chain,
          credit: available,
          asset: 'USDT',
          amount: 5n,
          type: 'trade',
          key: randomUUID(),
        })
        await transfer(trx, {
          debit: available,
          credit: locked,
          asset: 'USDT',
          amount: 16n,
          type: 'trade_fee',
          key: randomUUID(),
        })
      }),
    ).rejects.toMatchObject(insufficient)
    expect(await transferCount()).toBe(count)
    expect([await balanceOf(available), await balanceOf(locked)]).toEqual([10n, 0n])
  })

  it('lists balances per asset, the statement newest first with signed amounts, and user totals', async () => {
    const { user, chain, available } = await fundedUser(1000n)
    const locked = await userAccount(db, user, 'USDT', 'locked')
    const fees = await systemAccount(db, 'USDT', 'fees')
    const lock = await run({
      debit: available,
      credit: locked,
      asset: 'USDT',
      amount: 300n,
      type: 'withdraw_lock',
      key: randomUUID(),
      reference: 'withdraw:1',
    })
    await run({ debit: locked, credit: fees, asset: 'USDT', amount: 2n, type: 'withdraw_fee', key: randomUUID() })
    expect(await balances(db, user)).toEqual({
      USDT: { available: 700n, locked: 298n },
      PLG: { available: 0n, locked: 0n },
    })

    const all = await statement(db, { userId: user, page: 1, limit: 10 })
    expect(all.total).toBe(4)
    expect(all.list.map((e) => [e.type, e.account, e.direction, e.amount])).toEqual([
      ['withdraw_fee', 'locked', 'out', '-2'],
      ['withdraw_lock', 'locked', 'in', '300'],
      ['withdraw_lock', 'available', 'out', '-300'],
      ['deposit', 'available', 'in', '1000'],
    ])
    expect(all.list[1]).toMatchObject({ id: lock.id, coin: 'USDT', reference: 'withdraw:1' })
    expect(Date.parse(all.list[0]?.created_at ?? '')).toBeGreaterThan(0)
    const page2 = await statement(db, { userId: user, page: 2, limit: 3 })
    expect(page2).toEqual({ total: 4, list: [all.list[3]] })
    expect((await statement(db, { userId: user, type: 'withdraw_lock', page: 1, limit: 10 })).total).toBe(2)
    expect(await statement(db, { userId: user, asset: 'PLG', page: 1, limit: 10 })).toEqual({ total: 0, list: [] })

    const users = await sql<{ total: string }>`
      select coalesce(sum(balance), 0) as total from ledger_accounts where asset = 'USDT' and user_id is not null`.execute(
      db,
    )
    expect(await totals(db, 'USDT')).toBe(BigInt(users.rows[0]?.total ?? -1))
    expect(await totals(db, 'USDT')).toBeGreaterThanOrEqual(998n)
    expect(await balanceOf(chain)).toBeLessThan(0n)
  })

  it('checkInvariants finds a balance that no transfer explains', async () => {
    expect(await checkInvariants(db)).toEqual([])
    const fees = await systemAccount(db, 'USDT', 'fees')
    await sql`update ledger_accounts set balance = balance + 5 where id = ${fees}`.execute(db)
    const violations = await checkInvariants(db)
    await sql`update ledger_accounts set balance = balance - 5 where id = ${fees}`.execute(db)
    expect(violations).toEqual([
      expect.stringMatching(/^asset USDT: balances sum to 5/),
      expect.stringMatching(new RegExp(`^account ${fees}: balance`)),
    ])
    expect(await checkInvariants(db)).toEqual([])
  })

  it('transfers both ways between the same accounts at once never deadlock', async () => {
    const a = await fundedUser(1000n)
    const b = await fundedUser(1000n)
    await Promise.all(
      Array.from({ length: 200 }, (_, i) => {
        const [from, to] = i % 2 ? [a.available, b.available] : [b.available, a.available]
        return run({ debit: from, credit: to, asset: 'USDT', amount: 3n, type: 'admin_adjustment', key: randomUUID() })
      }),
    )
    expect([await balanceOf(a.available), await balanceOf(b.available)]).toEqual([1000n, 1000n])
  })

  it('100 concurrent debits beyond the balance: exactly floor(balance / amount) go through', async () => {
    const { available } = await fundedUser(1000n)
    const fees = await systemAccount(db, 'USDT', 'fees')
    const outcomes = await Promise.allSettled(
      Array.from({ length: 100 }, () =>
        run({ debit: available, credit: fees, asset: 'USDT', amount: 30n, type: 'trade_fee', key: randomUUID() }),
      ),
    )
    const refused = outcomes.filter((o) => o.status === 'rejected')
    expect(outcomes.length - refused.length).toBe(33)
    for (const o of refused) expect(o.reason).toMatchObject(insufficient)
    expect(await balanceOf(available)).toBe(10n)
    expect(await checkInvariants(db)).toEqual([])
  })

  it('accountIds finds and creates many accounts at once, the same ones userAccount and systemAccount give', async () => {
    const [u1, u2] = [await newUser(db), await newUser(db)]
    const existing = await userAccount(db, u1, 'USDT', 'available')
    const specs = [
      { userId: u1, asset: 'USDT', kind: 'available' },
      { userId: u1, asset: 'PLG', kind: 'locked' },
      { userId: u2, asset: 'USDT', kind: 'locked' },
      { userId: null, asset: 'PLG', kind: 'trade_test' },
      { userId: u1, asset: 'USDT', kind: 'available' },
    ]
    const ids = await db.transaction().execute((trx) => accountIds(trx, specs))
    expect(ids.size).toBe(4)
    expect(ids.get(accountKey(specs[0] as AccountSpec))).toBe(existing)
    expect(ids.get(`${u1}/PLG/locked`)).toBe(await userAccount(db, u1, 'PLG', 'locked'))
    expect(ids.get(`${u2}/USDT/locked`)).toBe(await userAccount(db, u2, 'USDT', 'locked'))
    expect(ids.get('/PLG/trade_test')).toBe(await systemAccount(db, 'PLG', 'trade_test'))
    expect(await db.transaction().execute((trx) => accountIds(trx, specs))).toEqual(ids)
  })

  it('transferMany: net moves in one statement, once per key, refused as a whole below zero', async () => {
    const a = await fundedUser(100n)
    const b = await fundedUser(1n)
    const fees = await systemAccount(db, 'USDT', 'fees')
    const feesBefore = await balanceOf(fees)
    const key = randomUUID()
    // a pays b 100, b pays 60 of it on to a fee and 41 back to a: b ends at 0 although it starts at 1.
    const list: TransferInput[] = [
      {
        debit: a.available,
        credit: b.available,
        asset: 'USDT',
        amount: 100n,
        type: 'admin_adjustment',
        key: `${key}:1`,
      },
      { debit: b.available, credit: fees, asset: 'USDT', amount: 60n, type: 'trade_fee', key: `${key}:2` },
      {
        debit: b.available,
        credit: a.available,
        asset: 'USDT',
        amount: 41n,
        type: 'admin_adjustment',
        key: `${key}:3`,
      },
    ]
    const many = (transfers: TransferInput[]) => db.transaction().execute((trx) => transferMany(trx, transfers))
    await many(list)
    const after = [await balanceOf(a.available), await balanceOf(b.available), await balanceOf(fees)]
    expect(after).toEqual([41n, 0n, feesBefore + 60n])
    // A retry changes nothing; a key reused for something else throws.
    const count = await transferCount()
    await many(list)
    expect(await transferCount()).toBe(count)
    await expect(many([{ ...(list[0] as TransferInput), amount: 99n }])).rejects.toThrow(/idempotency key .* reused/)
    // One transfer below zero refuses them all.
    await expect(
      many([
        { debit: fees, credit: a.available, asset: 'USDT', amount: 5n, type: 'admin_adjustment', key: randomUUID() },
        { debit: b.available, credit: fees, asset: 'USDT', amount: 1n, type: 'trade_fee', key: randomUUID() },
      ]),
    ).rejects.toMatchObject(insufficient)
    expect([await balanceOf(a.available), await balanceOf(b.available), await balanceOf(fees)]).toEqual(after)
    await expect(
      many([{ debit: a.available, credit: fees, asset: 'PLG', amount: 1n, type: 'trade_fee', key: randomUUID() }]),
    ).rejects.toThrow(/not of its asset/)
    expect(await checkInvariants(db)).toEqual([])
  })
})
