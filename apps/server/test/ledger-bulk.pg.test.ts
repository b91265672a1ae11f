// transferMany locks its accounts and moves them in one statement (modules/ledger/bulk.ts): against a transaction that
// holds one of its accounts, it waits, then moves the newest balance and checks it, as a lock taken by a statement of
// its own before did. PostgreSQL only (a *.pg.test.ts file): PGlite is one session.
import { randomUUID } from 'node:crypto'
import { Code } from '@solpledge/contract'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Database } from '../src/db/index.ts'
import { transferMany } from '../src/modules/ledger/bulk.ts'
import {
  checkInvariants,
  systemAccount,
  type TransferInput,
  transfer,
  userAccount,
} from '../src/modules/ledger/service.ts'
import { accountBalance, addOffChainAssets, freshDatabase, newUser } from './helpers.ts'

describe('ledger transferMany against concurrent transfers (postgres)', () => {
  let db: Database
  let drop: () => Promise<void>
  beforeAll(async () => {
    ;({ db, drop } = await freshDatabase())
    await addOffChainAssets(db)
  })
  afterAll(() => drop())

  const balanceOf = (id: string) => accountBalance(db, id)
  async function funded(amount: bigint) {
    const available = await userAccount(db, await newUser(db), 'USDT', 'available')
    const chain = await systemAccount(db, 'USDT', 'chain')
    await db
      .transaction()
      .execute((trx) =>
        transfer(trx, { debit: chain, credit: available, asset: 'USDT', amount, type: 'deposit', key: randomUUID() }),
      )
    return available
  }
  const move = (debit: string, credit: string, amount: bigint): TransferInput => ({
    debit,
    credit,
    asset: 'USDT',
    amount,
    type: 'admin_adjustment',
    key: randomUUID(),
  })

  /**
   * Runs `first` in a transaction that stays open until transferMany(`many`) has waited for it a while, then commits;
   * gives transferMany's outcome and whether it was still waiting when the first committed.
   */
  async function behind(first: TransferInput, many: TransferInput[]) {
    let release = () => {}
    const held = new Promise<void>((resolve) => {
      release = resolve
    })
    let locked = () => {}
    const started = new Promise<void>((resolve) => {
      locked = resolve
    })
    const holder = db.transaction().execute(async (trx) => {
      await transfer(trx, first)
      locked()
      await held
    })
    await started
    let done = false
    const outcome = db
      .transaction()
      .execute((trx) => transferMany(trx, many))
      .then(
        () => ({ ok: true as const }),
        (error: unknown) => ({ ok: false as const, error }),
      )
      .finally(() => {
        done = true
      })
    await new Promise((resolve) => setTimeout(resolve, 300))
    const waited = !done
    release()
    await holder
    return { ...(await outcome), waited }
  }

  it('waits for an account another transaction moved, then moves its newest balance', async () => {
    const [a, b] = [await funded(100n), await funded(100n)]
    const fees = await systemAccount(db, 'USDT', 'fees')
    const feesBefore = await balanceOf(fees)
    // The other transaction pays b 50; transferMany then takes 120 of b's, more than b held when it started.
    const result = await behind(move(a, b, 50n), [move(b, a, 120n), move(b, fees, 20n)])
    expect(result.ok ? null : String(result.error)).toBe(null)
    expect(result).toMatchObject({ ok: true, waited: true })
    expect([await balanceOf(a), await balanceOf(b), await balanceOf(fees)]).toEqual([170n, 10n, feesBefore + 20n])
    expect(await checkInvariants(db)).toEqual([])
  })

  it('refuses below zero on the newest balance, with nothing moved', async () => {
    const [a, b] = [await funded(100n), await funded(100n)]
    // The other transaction spends 90 of b's; transferMany's 20 from b then no longer fits.
    const result = await behind(move(b, a, 90n), [move(b, a, 20n)])
    expect(result.waited).toBe(true)
    expect(result.ok ? null : result.error).toMatchObject({ code: Code.FAIL, key: 'common.insufficientBalance' })
    expect([await balanceOf(a), await balanceOf(b)]).toEqual([190n, 10n])
    expect(await checkInvariants(db)).toEqual([])
  })
})
