import { Keypair } from '@solana/web3.js'
import { api, Code, type PaymentIntent } from '@solpledge/contract'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { watchIntents } from '../src/modules/intents/service.ts'
import { call, createTestApp, dbKind, login, seedRoot, TestWallet } from './helpers.ts'
import { available, createChainApp, createIntent, fundedUser, pay } from './money.ts'

describe(`payment intents: top-up (${dbKind})`, () => {
  let ctx: Awaited<ReturnType<typeof createChainApp>>
  beforeAll(async () => {
    ctx = await createChainApp()
  }, 120_000)
  afterAll(() => ctx.close())

  const submit = (auth: { token: string; address: string }, intent: PaymentIntent, signature: string) =>
    call(ctx.app, api.intentSubmit, { id: intent.id, signature }, auth)

  it('creates an intent naming the treasury, the mint and a fresh reference', async () => {
    const user = await fundedUser(ctx)
    const intent = await createIntent(ctx, user.auth, 'USDT', 100_000_000n)
    expect(intent).toMatchObject({ coin: 'USDT', amount: '100000000', decimals: 6, status: 'pending', signature: null })
    expect(intent.recipient).toBe(ctx.platform.treasury.address)
    const other = await createIntent(ctx, user.auth, 'USDT', 100_000_000n)
    expect(other.reference).not.toBe(intent.reference)
  })

  it('credits a verified deposit once, however often and however concurrently it is reported', async () => {
    const user = await fundedUser(ctx)
    const intent = await createIntent(ctx, user.auth, 'USDT', 100_000_000n)
    const signature = await pay(ctx.connection, user.keypair, intent)
    const results = await Promise.all(Array.from({ length: 1000 }, () => submit(user.auth, intent, signature)))
    expect(results.every((r) => r.code === Code.OK)).toBe(true)
    expect(results[0]?.msg).toBe('Recharge successfully')
    expect(await available(ctx, user.auth, 'USDT')).toBe(100_000_000n)
    const log = await call(ctx.app, api.moneyLog, { page: 1, limit: 10, coin: 'USDT' }, user.auth)
    expect((log.data as { total: number }).total).toBe(1)
  }, 120_000)

  describe('forged or wrong deposits are refused with nothing credited', () => {
    const refusedWith = async (
      make: (ctx2: { user: Awaited<ReturnType<typeof fundedUser>>; intent: PaymentIntent }) => Promise<string>,
      msg: string,
    ) => {
      const user = await fundedUser(ctx)
      const intent = await createIntent(ctx, user.auth, 'USDT', 50_000_000n)
      const signature = await make({ user, intent })
      const res = await submit(user.auth, intent, signature)
      expect(res).toMatchObject({ code: Code.FAIL, msg })
      expect(await available(ctx, user.auth, 'USDT')).toBe(0n)
      const info = await ctx.db
        .selectFrom('payment_intents')
        .select(['status', 'signature'])
        .where('id', '=', intent.id)
        .executeTakeFirstOrThrow()
      expect(info).toEqual({ status: 'pending', signature: null })
    }
    const mismatch = 'The transaction does not pay this top-up'
    it('wrong mint', () =>
      refusedWith(
        ({ user, intent }) =>
          pay(ctx.connection, user.keypair, intent, {
            mint: ctx.localnet.tokens.find((t) => t.symbol === 'PLG')?.mint,
            decimals: 9,
          }),
        mismatch,
      ))
    it('wrong recipient', () =>
      refusedWith(
        ({ user, intent }) =>
          pay(ctx.connection, user.keypair, intent, { recipientOwner: Keypair.generate().publicKey.toBase58() }),
        mismatch,
      ))
    it('short amount', () =>
      refusedWith(({ user, intent }) => pay(ctx.connection, user.keypair, intent, { amount: 49_999_999n }), mismatch))
    it('signed by another wallet', async () => {
      const other = await fundedUser(ctx)
      await refusedWith(
        ({ user, intent }) => pay(ctx.connection, user.keypair, intent, { authority: other.keypair }),
        mismatch,
      )
    })
    it('failed transaction', () =>
      refusedWith(
        ({ user, intent }) => pay(ctx.connection, user.keypair, intent, { amount: 10n ** 15n, skipPreflight: true }),
        mismatch,
      ))
    it('not yet confirmed (unknown signature)', () =>
      refusedWith(async () => '5'.repeat(88), 'The transaction is not confirmed yet, please wait a moment'))
    it('reference of another intent', async () => {
      await refusedWith(async ({ user }) => {
        const otherIntent = await createIntent(ctx, user.auth, 'USDT', 50_000_000n)
        return pay(ctx.connection, user.keypair, otherIntent)
      }, mismatch)
    })
    it('no reference at all', () =>
      refusedWith(({ user, intent }) => pay(ctx.connection, user.keypair, intent, { reference: null }), mismatch))
  })

  it('the signature of an old, fulfilled intent cannot pay a new one', async () => {
    const user = await fundedUser(ctx)
    const first = await createIntent(ctx, user.auth, 'USDT', 10_000_000n)
    const signature = await pay(ctx.connection, user.keypair, first)
    expect((await submit(user.auth, first, signature)).code).toBe(Code.OK)
    const second = await createIntent(ctx, user.auth, 'USDT', 10_000_000n)
    expect((await submit(user.auth, second, signature)).code).toBe(Code.FAIL)
    expect(await available(ctx, user.auth, 'USDT')).toBe(10_000_000n)
  }, 60_000)

  it("another user's intent can be neither submitted nor confirmed by someone else", async () => {
    const owner = await fundedUser(ctx)
    const stranger = await fundedUser(ctx)
    const intent = await createIntent(ctx, owner.auth, 'USDT', 10_000_000n)
    const signature = await pay(ctx.connection, owner.keypair, intent)
    const res = await submit(stranger.auth, intent, signature)
    expect(res).toMatchObject({ code: Code.NOT_FOUND, msg: 'This top-up does not exist' })
    expect(await available(ctx, stranger.auth, 'USDT')).toBe(0n)
    expect(await available(ctx, owner.auth, 'USDT')).toBe(0n)
  }, 60_000)

  it('the watcher credits a paid intent whose report never arrived, and expires unpaid ones', async () => {
    const user = await fundedUser(ctx)
    const paid = await createIntent(ctx, user.auth, 'USDT', 20_000_000n)
    const unpaid = await createIntent(ctx, user.auth, 'USDT', 20_000_000n)
    await pay(ctx.connection, user.keypair, paid)
    await watchIntents(ctx.db, ctx.platform, new Date(Date.now() + 60 * 60_000))
    const rows = await ctx.db
      .selectFrom('payment_intents')
      .select(['id', 'status'])
      .where('id', 'in', [paid.id, unpaid.id])
      .orderBy('id')
      .execute()
    expect(rows.map((r) => r.status)).toEqual(['fulfilled', 'expired'])
    expect(await available(ctx, user.auth, 'USDT')).toBe(20_000_000n)
    // A second pass changes nothing.
    await watchIntents(ctx.db, ctx.platform, new Date(Date.now() + 60 * 60_000))
    expect(await available(ctx, user.auth, 'USDT')).toBe(20_000_000n)
  }, 60_000)

  it('bad input changes nothing: zero, negative, decimals, huge, unknown asset, unknown id', async () => {
    const user = await fundedUser(ctx)
    for (const amount of ['0', '-5', '1.5', '1e6', '9'.repeat(39), '']) {
      const res = await call(ctx.app, api.intentCreate, { purpose: 'recharge', coin: 'USDT', amount }, user.auth)
      expect(res.code, amount).toBe(Code.INVALID)
    }
    expect(
      (await call(ctx.app, api.intentCreate, { purpose: 'recharge', coin: 'BTC', amount: '1' }, user.auth)).msg,
    ).toBe('Unknown asset')
    expect((await call(ctx.app, api.intentSubmit, { id: '999999', signature: '5'.repeat(88) }, user.auth)).code).toBe(
      Code.NOT_FOUND,
    )
    const count = await ctx.db
      .selectFrom('payment_intents')
      .select((eb) => eb.fn.countAll().as('n'))
      .where(
        'user_id',
        '=',
        (
          await ctx.db
            .selectFrom('users')
            .select('id')
            .where('address', '=', user.wallet.address)
            .executeTakeFirstOrThrow()
        ).id,
      )
      .executeTakeFirstOrThrow()
    expect(Number(count.n)).toBe(0)
  })

  it('refuses top-up of an asset that does not support it', async () => {
    const user = await fundedUser(ctx)
    await ctx.db.updateTable('assets').set({ is_user_recharge: false }).where('code', '=', 'PLG').execute()
    const res = await call(ctx.app, api.intentCreate, { purpose: 'recharge', coin: 'PLG', amount: '1' }, user.auth)
    expect(res).toMatchObject({ code: Code.FAIL, msg: 'This asset does not support recharge.' })
    await ctx.db.updateTable('assets').set({ is_user_recharge: true }).where('code', '=', 'PLG').execute()
  })

  it('solvency: user liabilities against what the treasury and hot wallet hold, read now', async () => {
    const res = await call(ctx.app, api.solvency, {})
    const usdt = (
      res.data as {
        list: { coin: string; liabilities: string; treasury: string; hot_wallet: string; covered: boolean }[]
      }
    ).list.find((r) => r.coin === 'USDT')
    const owed = await ctx.db
      .selectFrom('ledger_accounts')
      .select((eb) => eb.fn.sum<string>('balance').as('s'))
      .where('asset', '=', 'USDT')
      .where('user_id', 'is not', null)
      .executeTakeFirstOrThrow()
    expect(usdt?.liabilities).toBe(BigInt(owed.s ?? 0).toString())
    expect(BigInt(usdt?.treasury ?? 0)).toBeGreaterThanOrEqual(BigInt(usdt?.liabilities ?? 0))
    expect(BigInt(usdt?.hot_wallet ?? 0)).toBeGreaterThan(0n)
    expect(usdt?.covered).toBe(true)
  })

  it('faucet gives SOL, PLG and USDT to the wallet on the local chain', async () => {
    const user = await fundedUser(ctx, {})
    const res = await call(ctx.app, api.faucet, {}, user.auth)
    expect(res.code).toBe(Code.OK)
    const usdtMint = ctx.localnet.tokens.find((t) => t.symbol === 'USDT')?.mint as string
    const accounts = await ctx.connection.getParsedTokenAccountsByOwner(user.keypair.publicKey, {
      mint: new (await import('@solana/web3.js')).PublicKey(usdtMint),
    })
    expect(accounts.value[0]?.account.data.parsed.info.tokenAmount.amount).toBe('1000000000')
  })
})

describe(`faucet away from the local chain (${dbKind})`, () => {
  it('is refused on a real cluster', async () => {
    const t = await createTestApp({ cluster: 'mainnet-beta' })
    try {
      const root = await seedRoot(t.db)
      const wallet = new TestWallet()
      const { token } = (await login(t.app, wallet, root.address)).data as { token: string }
      const res = await call(t.app, api.faucet, {}, { token, address: wallet.address })
      expect(res).toMatchObject({ code: Code.FAIL, msg: 'The faucet is only available on the local chain' })
    } finally {
      await t.close()
    }
  })
})
