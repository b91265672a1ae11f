import { Keypair } from '@solana/web3.js'
import { api, Code, type PaymentIntent, type Stake, type UserNode } from '@solpledge/contract'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEFAULT_BUSINESS_CONFIG } from '../src/modules/config/defaults.ts'
import { setBusinessConfig } from '../src/modules/config/service.ts'
import { watchIntents } from '../src/modules/intents/service.ts'
import { checkInvariants } from '../src/modules/ledger/service.ts'
import { powerOf } from '../src/modules/power/service.ts'
import {
  call,
  createTestApp,
  dbKind,
  download,
  login,
  realCluster,
  seedRoot,
  sized,
  TestWallet,
  userIdOf,
} from './helpers.ts'
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
    const reports = sized(1000, 250)
    const results = await Promise.all(Array.from({ length: reports }, () => submit(user.auth, intent, signature)))
    expect(results.every((r) => r.code === Code.OK)).toBe(true)
    expect(results[0]?.msg).toBe('Recharge successfully')
    expect(await available(ctx, user.auth, 'USDT')).toBe(100_000_000n)
    const log = await call(ctx.app, api.moneyLog, { page: 1, limit: 10, coin: 'USDT' }, user.auth)
    expect((log.data as { total: number }).total).toBe(1)
    // The history's CSV file names the deposit's transaction.
    const file = await download(ctx.app, api.moneyLogCsv, { coin: 'USDT' }, user.auth)
    expect(file.lines?.slice(1).map((row) => [row[1], row[4], row[6], row[7]])).toEqual([
      ['deposit', '100', signature, `intent:${intent.id}`],
    ])
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
    expect(await checkInvariants(ctx.db)).toEqual([])
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
    const t = await createTestApp(realCluster('mainnet-beta'))
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

describe(`payment intents: stake and node (${dbKind})`, () => {
  const PLG = 1_000_000_000n
  const USDT = 1_000_000n
  let ctx: Awaited<ReturnType<typeof createChainApp>>
  let rootId: string
  beforeAll(async () => {
    ctx = await createChainApp()
    rootId = await userIdOf(ctx.db, ctx.root.address)
  }, 120_000)
  afterAll(() => ctx.close())

  /** A logged-in user under `parent` whose wallet holds SOL, 1000 PLG and 1000 USDT on the local chain. */
  async function member(parent: { wallet: TestWallet } | null = null) {
    const wallet = new TestWallet()
    const session = await login(ctx.app, wallet, (parent?.wallet ?? ctx.root).address)
    const token = (session.data as { token: string }).token
    await ctx.localnet.faucet(wallet.address, {
      sol: 2_000_000_000n,
      tokens: { USDT: 1000n * USDT, PLG: 1000n * PLG },
    })
    return {
      wallet,
      keypair: Keypair.fromSeed(wallet.secret),
      id: await userIdOf(ctx.db, wallet.address),
      auth: { token, address: wallet.address },
    }
  }
  type Member = Awaited<ReturnType<typeof member>>

  const create = (u: Member, body: Record<string, unknown>) => call(ctx.app, api.intentCreate, body, u.auth)
  const intentOf = async (u: Member, body: Record<string, unknown>) => {
    const res = await create(u, body)
    expect(res.code, res.msg).toBe(Code.OK)
    return res.data as PaymentIntent
  }
  const submit = (u: Member, intent: PaymentIntent, signature: string) =>
    call(ctx.app, api.intentSubmit, { id: intent.id, signature }, u.auth)
  const payAndSubmit = async (u: Member, intent: PaymentIntent) =>
    submit(u, intent, await pay(ctx.connection, u.keypair, intent))
  const intentRow = (id: string) =>
    ctx.db.selectFrom('payment_intents').select(['status', 'outcome']).where('id', '=', id).executeTakeFirstOrThrow()
  const nodesOf = async (u: Member) =>
    ((await call(ctx.app, api.myNodes, {}, u.auth)).data as { list: UserNode[] }).list
  const stakesOf = async (u: Member) =>
    (
      (await call(ctx.app, api.minerList, { status: 'mining' }, u.auth)).data as {
        list: Stake[]
      }
    ).list
  const intentCount = async () =>
    Number(
      (
        await ctx.db
          .selectFrom('payment_intents')
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    )
  const tinyLevel = (code: string, supplyCap: number) => ({
    code,
    priceUsdt: String(10n * USDT),
    supplyCap,
    powerBonusBps: 5000,
    dividendWeight: 1,
    onePerUser: true,
  })

  it('stake: paid on chain, the stake is made on the terms of creation, with power up the chain', async () => {
    const a = await member()
    const b = await member(a)
    const c = await member(b)
    const rootBefore = await powerOf(ctx.db, rootId)
    const intent = await intentOf(c, { purpose: 'stake', amount: String(600n * PLG), days: 90 })
    expect(intent).toMatchObject({
      purpose: 'stake',
      coin: 'PLG',
      decimals: 9,
      amount: String(600n * PLG),
      days: 90,
      level: null,
      applied_id: null,
      refusal: null,
      status: 'pending',
      recipient: ctx.platform.treasury.address,
    })
    // The price doubles after the intent is made: the stake keeps the price of creation (0.5 USDT).
    await setBusinessConfig(ctx.db, { ...DEFAULT_BUSINESS_CONFIG, referencePrice: '1000000' }, 'test')
    try {
      const signature = await pay(ctx.connection, c.keypair, intent)
      const results = await Promise.all(Array.from({ length: 20 }, () => submit(c, intent, signature)))
      expect(results.every((r) => r.code === Code.OK && r.msg === 'Staking Successful')).toBe(true)
      const done = results[0]?.data as PaymentIntent
      expect(done).toMatchObject({ status: 'fulfilled', signature, days: 90, refusal: null })
      const stakes = await stakesOf(c)
      expect(stakes).toHaveLength(1)
      expect(stakes[0]).toMatchObject({
        id: done.applied_id,
        amount: String(600n * PLG),
        price: '500000',
        usdt_value: String(300n * USDT),
        power: String(450n * USDT),
        total_output: String(720n * PLG),
        days: 90,
        paid: 'chain',
      })
      expect(results.every((r) => (r.data as PaymentIntent).applied_id === done.applied_id)).toBe(true)
    } finally {
      await setBusinessConfig(ctx.db, DEFAULT_BUSINESS_CONFIG, 'test')
    }
    // The payment was credited, then staked: nothing left available.
    expect(await available(ctx, c.auth, 'PLG')).toBe(0n)
    const moves = await ctx.db
      .selectFrom('ledger_transfers')
      .select(['type', 'amount'])
      .where('reference', 'in', [`intent:${intent.id}`, `stake:${(await stakesOf(c))[0]?.id}`])
      .orderBy('id')
      .execute()
    expect(moves).toEqual([
      { type: 'deposit', amount: String(600n * PLG) },
      { type: 'stake', amount: String(600n * PLG) },
    ])
    expect(await powerOf(ctx.db, c.id)).toEqual({
      personal_power: 450n * USDT,
      team_power: 0n,
      performance: 300n * USDT,
      team_performance: 0n,
    })
    for (const ancestor of [a, b])
      expect(await powerOf(ctx.db, ancestor.id)).toMatchObject({ personal_power: 0n, team_power: 450n * USDT })
    expect((await powerOf(ctx.db, rootId)).team_power - rootBefore.team_power).toBe(450n * USDT)
  }, 120_000)

  it('refuses at creation with nothing stored: missing fields, minimum, period, level, bad amounts', async () => {
    const u = await member()
    const count = await intentCount()
    const cases: [Record<string, unknown>, number, string?][] = [
      [{ purpose: 'stake', days: 30 }, Code.INVALID, 'This payment needs amount'],
      [{ purpose: 'stake', amount: String(300n * PLG) }, Code.INVALID, 'This payment needs days'],
      [
        { purpose: 'stake', amount: String(200n * PLG - 1n), days: 30 },
        Code.FAIL,
        'The amount of the pledge cannot be less than 200PLG',
      ],
      [
        { purpose: 'stake', amount: String(300n * PLG), days: 31 },
        Code.INVALID,
        'Please choose one of the staking periods',
      ],
      [{ purpose: 'stake', amount: String(300n * PLG), days: 30, coin: 'USDT' }, Code.INVALID],
      [{ purpose: 'stake', amount: '18446744073709551616', days: 30 }, Code.INVALID],
      [{ purpose: 'node' }, Code.INVALID, 'This payment needs level'],
      [{ purpose: 'node', level: 'mythic' }, Code.INVALID, 'Unknown node level'],
      [{ purpose: 'node', level: 'junior', coin: 'PLG' }, Code.INVALID],
      [{ purpose: 'recharge', amount: '1' }, Code.INVALID, 'This payment needs coin'],
      [{ purpose: 'recharge', coin: 'USDT' }, Code.INVALID, 'This payment needs amount'],
      [{ purpose: 'pledge', amount: '1', days: 30 }, Code.INVALID],
    ]
    for (const amount of ['0', '-1', '1.5', '1e9', '9'.repeat(39), ''])
      cases.push([{ purpose: 'stake', amount, days: 30 }, Code.INVALID])
    for (const days of [0, -30, 30.5, '30'])
      cases.push([{ purpose: 'stake', amount: String(300n * PLG), days }, Code.INVALID])
    for (const [body, code, msg] of cases) {
      const res = await create(u, body)
      expect(res.code, JSON.stringify(body)).toBe(code)
      if (msg) expect(res.msg, JSON.stringify(body)).toBe(msg)
    }
    expect(await intentCount()).toBe(count)
  })

  it('node: paid on chain, the node is bought at the price of the intent, with power up the chain', async () => {
    const a = await member()
    const b = await member(a)
    const c = await member(b)
    const rootBefore = await powerOf(ctx.db, rootId)
    const intent = await intentOf(c, { purpose: 'node', level: 'junior' })
    expect(intent).toMatchObject({
      purpose: 'node',
      coin: 'USDT',
      amount: String(500n * USDT),
      level: 'junior',
      days: null,
    })
    const res = await payAndSubmit(c, intent)
    expect(res).toMatchObject({ code: Code.OK, msg: 'Node purchased.' })
    const nodes = await nodesOf(c)
    expect(nodes).toEqual([expect.objectContaining({ id: (res.data as PaymentIntent).applied_id, level: 'junior' })])
    expect(nodes[0]?.price_usdt).toBe(String(500n * USDT))
    expect(await available(ctx, c.auth, 'USDT')).toBe(0n)
    // Junior: 500 USDT × 10 % = 50 USDT of power, no performance.
    expect(await powerOf(ctx.db, c.id)).toEqual({
      personal_power: 50n * USDT,
      team_power: 0n,
      performance: 0n,
      team_performance: 0n,
    })
    for (const ancestor of [a, b])
      expect(await powerOf(ctx.db, ancestor.id)).toMatchObject({ personal_power: 0n, team_power: 50n * USDT })
    expect((await powerOf(ctx.db, rootId)).team_power - rootBefore.team_power).toBe(50n * USDT)
    const event = await ctx.db
      .selectFrom('power_events')
      .select(['user_id', 'power'])
      .where('source', '=', 'node')
      .where('source_id', '=', nodes[0]?.id as string)
      .executeTakeFirstOrThrow()
    expect(event).toEqual({ user_id: c.id, power: String(50n * USDT) })
    // Held now: a new intent for the level is refused at creation.
    expect(await create(c, { purpose: 'node', level: 'junior' })).toMatchObject({
      code: Code.FAIL,
      msg: 'You already hold a node of this level',
    })
  }, 120_000)

  it('node sold out between creation and payment: the deposit is kept, the outcome is the refusal', async () => {
    await setBusinessConfig(ctx.db, { ...DEFAULT_BUSINESS_CONFIG, nodeLevels: [tinyLevel('tiny', 1)] }, 'test')
    try {
      const late = await member()
      const early = await member()
      const lateIntent = await intentOf(late, { purpose: 'node', level: 'tiny' })
      const earlyIntent = await intentOf(early, { purpose: 'node', level: 'tiny' })
      expect((await payAndSubmit(early, earlyIntent)).code).toBe(Code.OK)
      expect(await create(late, { purpose: 'node', level: 'tiny' })).toMatchObject({
        code: Code.FAIL,
        msg: 'This node level is sold out',
      })
      const signature = await pay(ctx.connection, late.keypair, lateIntent)
      const refusal = 'This node level sold out before your payment arrived; the amount is in your asset balance'
      expect(await submit(late, lateIntent, signature)).toMatchObject({ code: Code.FAIL, msg: refusal, data: null })
      // Retrying tells the same, and credits nothing more.
      expect(await submit(late, lateIntent, signature)).toMatchObject({ code: Code.FAIL, msg: refusal })
      expect(await intentRow(lateIntent.id)).toEqual({ status: 'fulfilled', outcome: 'refused:node.soldOutPaid' })
      expect(await available(ctx, late.auth, 'USDT')).toBe(10n * USDT)
      expect(await nodesOf(late)).toEqual([])
      expect((await powerOf(ctx.db, late.id)).personal_power).toBe(0n)
      const sold = await ctx.db.selectFrom('user_nodes').select('user_id').where('level', '=', 'tiny').execute()
      expect(sold).toEqual([{ user_id: early.id }])
    } finally {
      await setBusinessConfig(ctx.db, DEFAULT_BUSINESS_CONFIG, 'test')
    }
  }, 120_000)

  it('node already held when the second payment arrives: that payment stays in the balance', async () => {
    const u = await member()
    const first = await intentOf(u, { purpose: 'node', level: 'junior' })
    const second = await intentOf(u, { purpose: 'node', level: 'junior' })
    expect((await payAndSubmit(u, first)).code).toBe(Code.OK)
    expect(await payAndSubmit(u, second)).toMatchObject({
      code: Code.FAIL,
      msg: 'You already hold a node of this level; the payment is in your asset balance',
    })
    expect(await intentRow(second.id)).toEqual({ status: 'fulfilled', outcome: 'refused:node.alreadyHeldPaid' })
    expect(await nodesOf(u)).toHaveLength(1)
    expect(await available(ctx, u.auth, 'USDT')).toBe(500n * USDT)
  }, 120_000)

  it('the watcher applies the purpose of paid intents whose report never arrived', async () => {
    await setBusinessConfig(ctx.db, { ...DEFAULT_BUSINESS_CONFIG, nodeLevels: [tinyLevel('small', 1)] }, 'test')
    try {
      const u = await member()
      const v = await member()
      const stakeIntent = await intentOf(u, { purpose: 'stake', amount: String(400n * PLG), days: 30 })
      const nodeIntent = await intentOf(u, { purpose: 'node', level: 'small' })
      const refusedIntent = await intentOf(v, { purpose: 'node', level: 'small' })
      await pay(ctx.connection, u.keypair, stakeIntent)
      await pay(ctx.connection, u.keypair, nodeIntent)
      await pay(ctx.connection, v.keypair, refusedIntent)
      await watchIntents(ctx.db, ctx.platform)
      const stakes = await stakesOf(u)
      expect(stakes).toHaveLength(1)
      expect(stakes[0]).toMatchObject({ amount: String(400n * PLG), days: 30, paid: 'chain' })
      const nodes = await nodesOf(u)
      expect(nodes).toHaveLength(1)
      expect(await intentRow(stakeIntent.id)).toEqual({ status: 'fulfilled', outcome: `applied:${stakes[0]?.id}` })
      expect(await intentRow(nodeIntent.id)).toEqual({ status: 'fulfilled', outcome: `applied:${nodes[0]?.id}` })
      expect(await intentRow(refusedIntent.id)).toEqual({ status: 'fulfilled', outcome: 'refused:node.soldOutPaid' })
      expect(await available(ctx, u.auth, 'PLG')).toBe(0n)
      expect(await available(ctx, u.auth, 'USDT')).toBe(0n)
      expect(await available(ctx, v.auth, 'USDT')).toBe(10n * USDT)
      // A second pass changes nothing.
      await watchIntents(ctx.db, ctx.platform)
      expect(await stakesOf(u)).toHaveLength(1)
      expect(await available(ctx, v.auth, 'USDT')).toBe(10n * USDT)
    } finally {
      await setBusinessConfig(ctx.db, DEFAULT_BUSINESS_CONFIG, 'test')
    }
  }, 120_000)

  it('the ledger invariants hold', async () => {
    expect(await checkInvariants(ctx.db)).toEqual([])
  })
})
