import http from 'node:http'
import type { AddressInfo } from 'node:net'
import {
  createAssociatedTokenAccountIdempotentInstruction,
  createCloseAccountInstruction,
  createTransferCheckedInstruction,
  getAssociatedTokenAddressSync,
} from '@solana/spl-token'
import { type Connection, Keypair, PublicKey, sendAndConfirmTransaction, Transaction } from '@solana/web3.js'
import { API_BASE, api, Code, HEALTH_PATHS, type Withdrawal } from '@solpledge/contract'
import { USDT } from '@solpledge/test-fixtures'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sendPrepared } from '../src/chain/payout.ts'
import { createChain } from '../src/chain/rpc.ts'
import { ownerTokenBalance } from '../src/chain/token.ts'
import { parseSecretKey } from '../src/config.ts'
import { checkInvariants } from '../src/modules/ledger/service.ts'
import { diagnosePayout } from '../src/modules/withdrawals/hot-wallet.ts'
import { processWithdrawals } from '../src/modules/withdrawals/sender.ts'
import { approveWithdrawal, rejectWithdrawal } from '../src/modules/withdrawals/service.ts'
import { call, dbKind, TestWallet } from './helpers.ts'
import { blockHeightPast, type ChainApp, createChainApp, depositor, type fundedUser, sendAll } from './money.ts'

const FEE = 1n * USDT // seeded: fee 1 USDT, minimum 10 USDT, review from 10 000 USDT

type User = Awaited<ReturnType<typeof fundedUser>>

describe(`withdrawals (${dbKind})`, () => {
  let ctx: ChainApp
  let mint: string
  beforeAll(async () => {
    ctx = await createChainApp()
    mint = ctx.localnet.tokens.find((t) => t.symbol === 'USDT')?.mint as string
  }, 120_000)
  afterAll(() => ctx.close())

  const withdraw = (user: User, amount: bigint | string, coin = 'USDT') =>
    call(ctx.app, api.withdraw, { coin, amount: amount.toString() }, user.auth)

  async function balance(user: User) {
    const res = await call(ctx.app, api.userWallet, {}, user.auth)
    const row = (res.data as { list: { coin: string; available: string; locked: string }[] }).list.find(
      (a) => a.coin === 'USDT',
    )
    return { available: BigInt(row?.available ?? 0), locked: BigInt(row?.locked ?? 0) }
  }

  const onChain = async (owner: string) => (await ownerTokenBalance(ctx.platform.chain, owner, mint)) ?? 0n

  const row = (id: string) =>
    ctx.db.selectFrom('withdrawals').selectAll().where('id', '=', id).executeTakeFirstOrThrow()

  it('locks the amount, pays exactly amount − fee once (creating the token account) and settles the books', async () => {
    const user = await depositor(ctx, 100n * USDT)
    // The user's USDT account is empty after the top-up: close it, so the payout has to create it.
    const ata = getAssociatedTokenAddressSync(new PublicKey(mint), user.keypair.publicKey)
    await sendAndConfirmTransaction(
      ctx.connection,
      new Transaction().add(createCloseAccountInstruction(ata, user.keypair.publicKey, user.keypair.publicKey)),
      [user.keypair],
    )
    expect(await ownerTokenBalance(ctx.platform.chain, user.wallet.address, mint)).toBeNull()
    const hotBefore = await onChain(ctx.platform.hotWallet.address)

    const res = await withdraw(user, 30n * USDT)
    expect(res).toMatchObject({ code: Code.OK, msg: 'Withdrawal requested' })
    const requested = res.data as Withdrawal
    expect(requested).toMatchObject({
      coin: 'USDT',
      decimals: 6,
      amount: String(30n * USDT),
      fee: String(FEE),
      receive: String(29n * USDT),
      address: user.wallet.address,
      status: 'pending',
      signature: null,
    })
    expect(await balance(user)).toEqual({ available: 70n * USDT, locked: 30n * USDT })

    await sendAll(ctx)
    const done = await row(requested.id)
    expect(done).toMatchObject({ status: 'confirmed', attempts: 0, error: null })
    expect(await onChain(user.wallet.address)).toBe(29n * USDT)
    expect(await onChain(ctx.platform.hotWallet.address)).toBe(hotBefore - 29n * USDT)
    expect(await balance(user)).toEqual({ available: 70n * USDT, locked: 0n })
    const moves = await ctx.db
      .selectFrom('ledger_transfers')
      .select(['idempotency_key', 'type', 'amount'])
      .where('reference', '=', `withdraw:${requested.id}`)
      .orderBy('id')
      .execute()
    expect(moves).toEqual([
      { idempotency_key: `withdraw:${requested.id}:lock`, type: 'withdraw_lock', amount: String(30n * USDT) },
      { idempotency_key: `withdraw:${requested.id}:pay`, type: 'withdraw_pay', amount: String(29n * USDT) },
      { idempotency_key: `withdraw:${requested.id}:fee`, type: 'withdraw_fee', amount: String(FEE) },
    ])
    expect(await checkInvariants(ctx.db)).toEqual([])

    // Running the sender again, and even resending the stored bytes, changes nothing.
    expect((await processWithdrawals(ctx.db, ctx.platform)).checked).toBe(0)
    // The local chain has executed (here: turned away) a transaction by the time it answers its sending.
    expect(await sendPrepared(ctx.platform.chain, done.wire_transaction as string)).toEqual({ sent: true })
    expect(await onChain(user.wallet.address)).toBe(29n * USDT)
    expect(await balance(user)).toEqual({ available: 70n * USDT, locked: 0n })

    const list = await call(ctx.app, api.withdrawList, { page: 1, limit: 10 }, user.auth)
    expect(list.data).toMatchObject({
      total: 1,
      page: 1,
      limit: 10,
      list: [{ id: requested.id, status: 'confirmed', signature: done.signature }],
    })
  }, 60_000)

  it('bad input and refusals change nothing', async () => {
    const user = await depositor(ctx, 50n * USDT)
    for (const amount of ['0', '-5', '1.5', '1e6', '9'.repeat(39), '', ' 1']) {
      expect((await withdraw(user, amount)).code, amount).toBe(Code.INVALID)
    }
    expect(await withdraw(user, 20n * USDT, 'BTC')).toMatchObject({ code: Code.INVALID, msg: 'Unknown asset' })
    expect(await withdraw(user, 10n * USDT - 1n)).toMatchObject({
      code: Code.FAIL,
      msg: 'The withdrawal amount cannot be less than 10 USDT',
    })
    expect(await withdraw(user, 51n * USDT)).toMatchObject({ code: Code.FAIL, msg: 'Insufficient balance.' })
    expect(await withdraw(user, '9'.repeat(38))).toMatchObject({ code: Code.FAIL, msg: 'Insufficient balance.' })
    try {
      await ctx.db
        .updateTable('assets')
        .set({ withdraw_fee: String(20n * USDT) })
        .where('code', '=', 'USDT')
        .execute()
      expect(await withdraw(user, 15n * USDT)).toMatchObject({
        code: Code.FAIL,
        msg: 'The amount must be larger than the fee of 20 USDT',
      })
      // Amounts in refusals are grouped in the request's language, every decimal kept.
      await ctx.db
        .updateTable('assets')
        .set({ min_atm_money: String(1_234_500_001n), withdraw_fee: String(1_000_250_000n) })
        .where('code', '=', 'USDT')
        .execute()
      const inZh = (amount: bigint) =>
        call(ctx.app, api.withdraw, { coin: 'USDT', amount: amount.toString() }, { ...user.auth, lang: 'zh' })
      expect(await withdraw(user, 30n * USDT)).toMatchObject({
        code: Code.FAIL,
        msg: 'The withdrawal amount cannot be less than 1,234.500001 USDT',
      })
      expect((await inZh(30n * USDT)).msg).toBe('提现数量不能少于 1,234.500001 USDT')
      await ctx.db.updateTable('assets').set({ min_atm_money: '1' }).where('code', '=', 'USDT').execute()
      expect((await withdraw(user, 30n * USDT)).msg).toBe('The amount must be larger than the fee of 1,000.25 USDT')
      expect((await inZh(30n * USDT)).msg).toBe('数量必须大于手续费 1,000.25 USDT')
      await ctx.db.updateTable('assets').set({ withdraw_enabled: false }).where('code', '=', 'USDT').execute()
      expect(await withdraw(user, 30n * USDT)).toMatchObject({
        code: Code.FAIL,
        msg: 'This asset does not support withdrawal.',
      })
    } finally {
      await ctx.db
        .updateTable('assets')
        .set({ withdraw_fee: String(FEE), withdraw_enabled: true, min_atm_money: String(10n * USDT) })
        .where('code', '=', 'USDT')
        .execute()
    }
    expect(await balance(user)).toEqual({ available: 50n * USDT, locked: 0n })
    const list = await call(ctx.app, api.withdrawList, { page: 1, limit: 10 }, user.auth)
    expect(list.data).toMatchObject({ total: 0, list: [] })
    expect(await checkInvariants(ctx.db)).toEqual([])
  }, 60_000)

  it('large withdrawals wait for review: the sender ignores them; approved ones are paid, rejected ones refunded', async () => {
    const user = await depositor(ctx, 20_000n * USDT)
    const answer = await withdraw(user, 10_000n * USDT)
    // The answer says what happens next: not "requested" alone, but under review.
    expect(answer.msg).toBe('Withdrawal requested: it is under review before it is sent')
    const first = answer.data as Withdrawal
    const second = (await withdraw(user, 10_000n * USDT)).data as Withdrawal
    expect([first.status, second.status]).toEqual(['review', 'review'])
    expect(await balance(user)).toEqual({ available: 0n, locked: 20_000n * USDT })

    expect((await processWithdrawals(ctx.db, ctx.platform)).checked).toBe(0)
    expect(await row(first.id)).toMatchObject({ status: 'review', signature: null })

    expect(await rejectWithdrawal(ctx.db, second.id, 'address under investigation')).toBe(true)
    expect(await rejectWithdrawal(ctx.db, second.id, 'twice')).toBe(false)
    expect(await approveWithdrawal(ctx.db, second.id)).toBe(false)
    expect(await row(second.id)).toMatchObject({ status: 'rejected', error: 'address under investigation' })
    expect(await balance(user)).toEqual({ available: 10_000n * USDT, locked: 10_000n * USDT })

    expect(await approveWithdrawal(ctx.db, first.id)).toBe(true)
    expect(await approveWithdrawal(ctx.db, first.id)).toBe(false)
    expect(await rejectWithdrawal(ctx.db, first.id, 'too late')).toBe(false)
    await sendAll(ctx)
    expect(await row(first.id)).toMatchObject({ status: 'confirmed' })
    expect(await onChain(user.wallet.address)).toBe(9_999n * USDT)
    expect(await balance(user)).toEqual({ available: 10_000n * USDT, locked: 0n })
    expect(await checkInvariants(ctx.db)).toEqual([])
  }, 60_000)

  it('100 concurrent requests beyond the balance: exactly the affordable ones are accepted', async () => {
    const user = await depositor(ctx, 1_050n * USDT)
    const results = await Promise.all(Array.from({ length: 100 }, () => withdraw(user, 100n * USDT)))
    const accepted = results.filter((r) => r.code === Code.OK)
    expect(accepted).toHaveLength(10)
    expect(results.filter((r) => r.code !== Code.OK).every((r) => r.msg === 'Insufficient balance.')).toBe(true)
    expect(await balance(user)).toEqual({ available: 50n * USDT, locked: 1_000n * USDT })
    expect((await call(ctx.app, api.withdrawList, { page: 1, limit: 100 }, user.auth)).data).toMatchObject({
      total: 10,
    })
    expect(await checkInvariants(ctx.db)).toEqual([])

    // Three senders at once, as three instances would run: each withdrawal is worked on by one at a time, and the ten
    // identical payouts (same amount, same wallet) never collapse into one transaction.
    await Promise.all([sendAll(ctx), sendAll(ctx), sendAll(ctx)])
    expect(await onChain(user.wallet.address)).toBe(10n * 99n * USDT)
    expect(await balance(user)).toEqual({ available: 50n * USDT, locked: 0n })
  }, 60_000)

  it('a hot wallet short of tokens: preflight refuses, the payout expires and is replaced, paid once when refilled', async () => {
    const user = await depositor(ctx, 50n * USDT)
    const hot = Keypair.fromSecretKey(ctx.platform.hotWallet.secretKey)
    const hotHeld = await onChain(hot.publicKey.toBase58())
    const parking = Keypair.generate().publicKey
    await moveTokens(ctx.connection, hot, parking, mint, hotHeld)
    try {
      const { id } = (await withdraw(user, 20n * USDT)).data as Withdrawal
      const firstPass = await processWithdrawals(ctx.db, ctx.platform)
      // The cause is named: the hot wallet's token balance, what it holds and needs, and how to refill it.
      expect(firstPass).toMatchObject({
        sent: 0,
        refused: 1,
        hotWallet: 'new',
        problem: { kind: 'token_balance', asset: 'USDT', held: '0', needed: '19' },
      })
      const first = await row(id)
      expect(first).toMatchObject({ status: 'sent', attempts: 0 })
      expect(first.error).toBe(
        `token balance too low: the hot wallet ${hot.publicKey.toBase58()} holds 0 USDT, a payout needs 19 USDT; ` +
          `send USDT to ${hot.publicKey.toBase58()} (sweep it from the treasury ${ctx.platform.treasury.address})`,
      )
      // The gauge the operator console and /api/health/ready show.
      const ready = await ctx.app.inject({ method: 'GET', url: `${API_BASE}${HEALTH_PATHS.ready}` })
      expect(ready.json().data.hot_wallet).toMatchObject({
        address: hot.publicKey.toBase58(),
        refused_total: 1,
        problem: { kind: 'token_balance', detail: first.error, since: expect.any(String) },
      })

      // The refused transaction can never land; once its blockhash expires (~7.5 s here) a new one replaces it.
      await blockHeightPast(ctx.connection, BigInt((await row(id)).last_valid_block_height as string))
      expect((await processWithdrawals(ctx.db, ctx.platform)).errors).toEqual([])
      const renewed = await row(id)
      expect(renewed).toMatchObject({ status: 'sent', attempts: 1 })
      expect(renewed.signature).not.toBe(first.signature)
      expect((await ctx.connection.getSignatureStatus(first.signature as string)).value).toBeNull()
      expect(await balance(user)).toEqual({ available: 30n * USDT, locked: 20n * USDT })
    } finally {
      await ctx.localnet.faucet(hot.publicKey.toBase58(), { tokens: { USDT: hotHeld } })
    }
    const passes = await sendAll(ctx)
    expect(passes[0]?.hotWallet).toBe('recovered')
    expect(ctx.platform.hotWalletStatus).toMatchObject({ problem: null, since: null })
    expect(ctx.platform.hotWalletStatus.refusedTotal).toBeGreaterThanOrEqual(1)
    expect(await onChain(user.wallet.address)).toBe(19n * USDT)
    expect(await onChain(hot.publicKey.toBase58())).toBe(hotHeld - 19n * USDT)
    expect(await balance(user)).toEqual({ available: 30n * USDT, locked: 0n })
    expect(await checkInvariants(ctx.db)).toEqual([])
  }, 60_000)

  it('names a hot wallet without SOL for fees, then one without a token account of the asset', async () => {
    const empty = parseSecretKey(JSON.stringify([...new TestWallet().secret]))
    const platform = { ...ctx.platform, hotWallet: empty }
    const usdt = { code: 'USDT', mint, decimals: 6 }
    expect(await diagnosePayout(platform, usdt, 19n * USDT, 'refused')).toEqual({
      kind: 'sol',
      asset: 'SOL',
      held: '0',
      needed: '0.00204428',
      detail:
        `insufficient SOL for fees: the hot wallet ${empty.address} holds 0 SOL, a payout needs up to 0.00204428 ` +
        `SOL; send SOL to ${empty.address}`,
    })
    await ctx.localnet.faucet(empty.address, { sol: 1_000_000_000n })
    expect(await diagnosePayout(platform, usdt, 19n * USDT, 'refused')).toMatchObject({
      kind: 'token_account',
      asset: 'USDT',
      detail:
        `missing token account: the hot wallet ${empty.address} has no USDT account (mint ${mint}); send USDT to ` +
        `${empty.address} (sweep it from the treasury ${ctx.platform.treasury.address})`,
    })
  })

  it('a payout that landed but failed on chain is refunded', async () => {
    const user = await depositor(ctx, 50n * USDT)
    const { id } = (await withdraw(user, 20n * USDT)).data as Withdrawal
    // The sender's own payouts pass preflight, so a failed transaction stands in for the stored one: the sender
    // decides from payoutStatus alone.
    const failed = await failedTransfer(ctx.connection, user.keypair, mint)
    await ctx.db
      .updateTable('withdrawals')
      .set({
        status: 'sent',
        signature: failed.signature,
        wire_transaction: failed.wire,
        last_valid_block_height: String(failed.lastValidBlockHeight),
      })
      .where('id', '=', id)
      .execute()
    expect(await processWithdrawals(ctx.db, ctx.platform)).toMatchObject({ checked: 1, failed: 1, errors: [] })
    expect(await row(id)).toMatchObject({ status: 'failed', error: expect.stringContaining('failed on chain') })
    expect(await balance(user)).toEqual({ available: 50n * USDT, locked: 0n })
    const refund = await ctx.db
      .selectFrom('ledger_transfers')
      .select(['type', 'amount'])
      .where('idempotency_key', '=', `withdraw:${id}:refund`)
      .executeTakeFirstOrThrow()
    expect(refund).toEqual({ type: 'withdraw_refund', amount: String(20n * USDT) })
    expect((await processWithdrawals(ctx.db, ctx.platform)).checked).toBe(0)
    expect(await checkInvariants(ctx.db)).toEqual([])
  }, 60_000)

  it("lists only the user's own withdrawals, newest first, filtered by coin", async () => {
    const owner = await depositor(ctx, 100n * USDT)
    const stranger = await depositor(ctx, 10n * USDT)
    const a = (await withdraw(owner, 10n * USDT)).data as Withdrawal
    const b = (await withdraw(owner, 20n * USDT)).data as Withdrawal
    const own = await call(ctx.app, api.withdrawList, { page: 1, limit: 1 }, owner.auth)
    expect(own.data).toMatchObject({ total: 2, list: [{ id: b.id }] })
    const page2 = await call(ctx.app, api.withdrawList, { page: 2, limit: 1 }, owner.auth)
    expect(page2.data).toMatchObject({ total: 2, list: [{ id: a.id }] })
    expect((await call(ctx.app, api.withdrawList, { page: 1, limit: 10, coin: 'PLG' }, owner.auth)).data).toMatchObject(
      { total: 0, list: [] },
    )
    expect((await call(ctx.app, api.withdrawList, { page: 1, limit: 10 }, stranger.auth)).data).toMatchObject({
      total: 0,
      list: [],
    })
    await sendAll(ctx)
  }, 60_000)

  it('asks the chain before it locks the row: while a call of the sender waits for the RPC node, the row is free', async () => {
    const user = await depositor(ctx, 20n * USDT)
    const id = ((await withdraw(user, 20n * USDT)).data as Withdrawal).id
    // A gate in front of the local chain holds the sender's getLatestBlockhash (preparing the payout) until released.
    let held = () => {}
    const holding = new Promise<void>((resolve) => {
      held = resolve
    })
    let release = () => {}
    const released = new Promise<void>((resolve) => {
      release = resolve
    })
    const gate = http.createServer(async (request, response) => {
      const chunks: Buffer[] = []
      for await (const chunk of request) chunks.push(chunk as Buffer)
      const body = Buffer.concat(chunks).toString()
      if ((JSON.parse(body) as { method?: string }).method === 'getLatestBlockhash') {
        held()
        await released
      }
      const answer = await fetch(ctx.localnet.rpcUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      })
      response.writeHead(answer.status, { 'content-type': 'application/json' }).end(await answer.text())
    })
    await new Promise<void>((resolve) => gate.listen(0, '127.0.0.1', resolve))
    try {
      const { port } = gate.address() as AddressInfo
      const gated = { ...ctx.platform, chain: createChain(`http://127.0.0.1:${port}`, ctx.localnet.wsUrl) }
      const pass = processWithdrawals(ctx.db, gated)
      await holding
      // No transaction of the sender is open: the row can be locked at once (NOWAIT fails on PostgreSQL otherwise;
      // on PGlite, whose one session serves every request, this would wait for the sender forever).
      const locked = await ctx.db
        .transaction()
        .execute((trx) =>
          sql<{ id: string }>`select id from withdrawals where id = ${id} for update nowait`.execute(trx),
        )
      expect(locked.rows).toEqual([{ id }])
      release()
      expect(await pass).toMatchObject({ sent: 1, errors: [] })
    } finally {
      release()
      gate.close()
    }
    await sendAll(ctx)
    expect((await row(id)).status).toBe('confirmed')
    expect(await checkInvariants(ctx.db)).toEqual([])
  }, 60_000)
})

/**
 * Moves `amount` of `mint` from `from`'s token account to `to`'s (created when missing). The test's own setup, not the
 * code under test: on a loaded machine the local chain's short-lived blockhash (~7.5 s) can expire between fetching
 * it and the send's simulation ("Blockhash not found"), so that one refusal is tried again with a new one.
 */
async function moveTokens(connection: Connection, from: Keypair, to: PublicKey, mint: string, amount: bigint) {
  const mintKey = new PublicKey(mint)
  const destination = getAssociatedTokenAddressSync(mintKey, to)
  for (let attempt = 1; ; attempt++) {
    try {
      await sendAndConfirmTransaction(
        connection,
        new Transaction().add(
          createAssociatedTokenAccountIdempotentInstruction(from.publicKey, destination, to, mintKey),
          createTransferCheckedInstruction(
            getAssociatedTokenAddressSync(mintKey, from.publicKey),
            mintKey,
            destination,
            from.publicKey,
            amount,
            6,
          ),
        ),
        [from],
      )
      return
    } catch (error) {
      if (attempt === 3 || !/Blockhash not found/i.test(String(error))) throw error
    }
  }
}

/** A token transfer beyond the sender's balance, sent without preflight: it lands, failed. */
async function failedTransfer(connection: Connection, owner: Keypair, mint: string) {
  const mintKey = new PublicKey(mint)
  const account = getAssociatedTokenAddressSync(mintKey, owner.publicKey)
  const { blockhash, lastValidBlockHeight } = await connection.getLatestBlockhash('confirmed')
  const tx = new Transaction({ feePayer: owner.publicKey, blockhash, lastValidBlockHeight }).add(
    createTransferCheckedInstruction(account, mintKey, account, owner.publicKey, 10n ** 15n, 6),
  )
  tx.sign(owner)
  const wire = tx.serialize()
  const signature = await connection.sendRawTransaction(wire, { skipPreflight: true })
  // Confirmation rejects with the transaction's error; what matters is that it landed.
  await connection
    .confirmTransaction({ signature, blockhash, lastValidBlockHeight }, 'confirmed')
    .catch(() => undefined)
  expect((await connection.getSignatureStatus(signature)).value?.err).toEqual({ InstructionError: [0, { Custom: 1 }] })
  return { signature, wire: wire.toString('base64'), lastValidBlockHeight }
}
