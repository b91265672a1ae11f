// A platform whose USDT is a Token-2022 mint (many stablecoins are): top-ups credited once (reported and found by the
// watcher), withdrawals paid on chain; a mint with a transfer fee is refused at the first start.

import {
  createInitializeMintInstruction,
  createInitializeTransferFeeConfigInstruction,
  ExtensionType,
  getAssociatedTokenAddressSync,
  getMintLen,
  TOKEN_2022_PROGRAM_ID,
} from '@solana/spl-token'
import { Keypair, PublicKey, SystemProgram, sendAndConfirmTransaction, Transaction } from '@solana/web3.js'
import { api, Code } from '@solpledge/contract'
import { USDT } from '@solpledge/test-fixtures'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ownerTokenBalance } from '../src/chain/token.ts'
import { ConfigError } from '../src/config.ts'
import { seedAssets } from '../src/modules/assets/seed.ts'
import { watchIntents } from '../src/modules/intents/service.ts'
import { checkInvariants } from '../src/modules/ledger/service.ts'
import { processWithdrawals } from '../src/modules/withdrawals/sender.ts'
import { call, dbKind, freshDatabase } from './helpers.ts'
import { available, type ChainApp, createChainApp, createIntent, depositor, fundedUser, pay, sendAll } from './money.ts'

describe(`Token-2022 USDT (${dbKind})`, () => {
  let ctx: ChainApp
  let mint: string
  beforeAll(async () => {
    ctx = await createChainApp({
      tokens: [
        { symbol: 'PLG', decimals: 9 },
        { symbol: 'USDT', decimals: 6, program: 'token-2022' },
      ],
    })
    mint = ctx.localnet.tokens.find((t) => t.symbol === 'USDT')?.mint as string
  }, 120_000)
  afterAll(() => ctx?.close())

  it('a top-up is credited once, reported or found by the watcher, into the Token-2022 treasury account', async () => {
    const user = await fundedUser(ctx, { USDT: 100n * USDT })
    const intent = await createIntent(ctx, user.auth, 'USDT', 30n * USDT)
    // The intent names the treasury's associated account under Token-2022, which the web app checks and pays into.
    expect(intent.recipient_token_account).toBe(
      getAssociatedTokenAddressSync(
        new PublicKey(mint),
        new PublicKey(intent.recipient),
        true,
        TOKEN_2022_PROGRAM_ID,
      ).toBase58(),
    )
    const signature = await pay(ctx.connection, user.keypair, intent)
    for (let i = 0; i < 2; i++) {
      const res = await call(ctx.app, api.intentSubmit, { id: intent.id, signature }, user.auth)
      expect(res.code).toBe(Code.OK)
    }
    expect(await watchIntents(ctx.db, ctx.platform)).toMatchObject({ fulfilled: 0 })
    expect(await available(ctx, user.auth, 'USDT')).toBe(30n * USDT)
    expect(await ownerTokenBalance(ctx.platform.chain, ctx.platform.treasury.address, mint)).toBe(30n * USDT)

    // Paid but never reported: the watcher finds it by its reference, once.
    const unreported = await createIntent(ctx, user.auth, 'USDT', 20n * USDT)
    await pay(ctx.connection, user.keypair, unreported)
    expect(await watchIntents(ctx.db, ctx.platform)).toMatchObject({ fulfilled: 1 })
    expect(await watchIntents(ctx.db, ctx.platform)).toMatchObject({ fulfilled: 0 })
    expect(await available(ctx, user.auth, 'USDT')).toBe(50n * USDT)
    expect(await checkInvariants(ctx.db)).toEqual([])
  })

  it('a withdrawal is paid on chain to a new Token-2022 account, once', async () => {
    const user = await depositor(ctx, 40n * USDT)
    const res = await call(ctx.app, api.withdraw, { coin: 'USDT', amount: (25n * USDT).toString() }, user.auth)
    expect(res.code).toBe(Code.OK)
    await sendAll(ctx)
    // Fee 1 USDT (seeded): 24 USDT arrive in the user's Token-2022 account, and nothing more on another pass.
    expect(await ownerTokenBalance(ctx.platform.chain, user.wallet.address, mint)).toBe(24n * USDT)
    expect((await processWithdrawals(ctx.db, ctx.platform)).checked).toBe(0)
    expect(await available(ctx, user.auth, 'USDT')).toBe(15n * USDT)
    const paid = await ctx.db
      .selectFrom('withdrawals')
      .select('status')
      .where('to_address', '=', user.wallet.address)
      .execute()
    expect(paid).toEqual([{ status: 'confirmed' }])
    expect(await checkInvariants(ctx.db)).toEqual([])
  })

  it('refuses at the first start a real-cluster mint with a transfer fee, naming the setting', async () => {
    const payer = Keypair.generate()
    await ctx.localnet.faucet(payer.publicKey.toBase58(), { sol: 1_000_000_000n })
    const feeMint = Keypair.generate()
    const space = getMintLen([ExtensionType.TransferFeeConfig])
    await sendAndConfirmTransaction(
      ctx.connection,
      new Transaction().add(
        SystemProgram.createAccount({
          fromPubkey: payer.publicKey,
          newAccountPubkey: feeMint.publicKey,
          space,
          lamports: await ctx.connection.getMinimumBalanceForRentExemption(space),
          programId: TOKEN_2022_PROGRAM_ID,
        }),
        createInitializeTransferFeeConfigInstruction(
          feeMint.publicKey,
          null,
          null,
          100,
          10n ** 9n,
          TOKEN_2022_PROGRAM_ID,
        ),
        createInitializeMintInstruction(feeMint.publicKey, 6, payer.publicKey, null, TOKEN_2022_PROGRAM_ID),
      ),
      [payer, feeMint],
    )
    const { db, drop } = await freshDatabase()
    try {
      const plg = ctx.localnet.tokens.find((t) => t.symbol === 'PLG')?.mint as string
      const config = { ...ctx.app.config, localChain: false, productMint: plg, usdtMint: feeMint.publicKey.toBase58() }
      const error = await seedAssets(db, config, { ...ctx.platform, localChain: false }).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(ConfigError)
      expect((error as ConfigError).problems).toEqual([
        `USDT_MINT ${feeMint.publicKey.toBase58()} has a transfer fee (TransferFeeConfig extension): users would be ` +
          'credited more than the treasury receives; use a mint without it',
      ])
      expect(await db.selectFrom('assets').select('code').execute()).toEqual([])
      // The Token-2022 mint without extensions is taken, with its decimals.
      await seedAssets(db, { ...config, usdtMint: mint }, { ...ctx.platform, localChain: false })
      expect(await db.selectFrom('assets').select(['code', 'mint', 'decimals']).orderBy('code').execute()).toEqual([
        { code: 'PLG', mint: plg, decimals: 9 },
        { code: 'USDT', mint, decimals: 6 },
      ])
    } finally {
      await drop()
    }
  })
})
