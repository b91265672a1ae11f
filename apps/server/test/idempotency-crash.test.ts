// Exactly once across a crash (docs/money.md "Idempotent money calls"): the real server process kills itself (SIGKILL,
// as a power cut would) right after a money call with an Idempotency-Key committed and before its answer leaves
// (CRASH_AT=committed); after a restart the client's retry with the same key gets the answer stored with the work,
// and the work was done once. A withdrawal request (a transaction of the route's) and a limit order (a command of the
// trade market's batch).

import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { Connection, Keypair } from '@solana/web3.js'
import {
  api,
  Code,
  IDEMPOTENCY_HEADER,
  IDEMPOTENT_REPLAYED_HEADER,
  type PaymentIntent,
  type RouteDef,
  type TradeOrder,
  type Withdrawal,
} from '@solpledge/contract'
import { type Localnet, startLocalnet } from '@solpledge/localnet'
import { PLG, USDT } from '@solpledge/test-fixtures'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
// @ts-expect-error plain ESM helpers shared with the npm scripts
import { freePort } from '../../../scripts/lib.mjs'
import { Client, readDatabase, serverDatabase, serverEnv } from './fixtures/crash.ts'
import { Instance, patientFetch } from './fixtures/instances.ts'
import { dbKind, TestWallet } from './helpers.ts'
import { pay } from './money.ts'

describe(`a money call killed between its commit and its answer (${dbKind})`, () => {
  let localnet: Localnet
  let connection: Connection
  beforeAll(async () => {
    localnet = await startLocalnet({ port: 0, slotMs: 50 })
    connection = new Connection(localnet.rpcUrl, {
      commitment: 'confirmed',
      wsEndpoint: localnet.wsUrl,
      fetch: patientFetch,
    })
  }, 60_000)
  afterAll(() => localnet?.close())

  // The server starts three times (seconds each: PGlite's start, the seed, the app's schemas): the timeout is a bound
  // for a loaded machine, not a wait.
  it('is done once, and the retry after the restart replays its answer byte for byte', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'solpledge-idempotency-crash-'))
    const database = await serverDatabase(dataDir)
    const port: number = await freePort()
    // No sender or watcher: nothing but the calls changes the money tables.
    const env = serverEnv(localnet, dataDir, database, {
      CRASH_AT: 'committed',
      SENDER_INTERVAL_MS: '0',
      WATCHER_INTERVAL_MS: '0',
    })
    let server: Instance | undefined
    try {
      server = new Instance(port, env)
      await server.start()
      const client = new Client(`http://127.0.0.1:${port}`)
      const wallet = new TestWallet()
      await client.login(wallet, server.rootAddress)
      // A top-up paid on chain, reported without a key (the crash hook only fires for calls with one).
      await localnet.faucet(wallet.address, { sol: 1_000_000_000n, tokens: { USDT: 100n * USDT } })
      const intent = await client.ok<PaymentIntent>(api.intentCreate, {
        purpose: 'recharge',
        coin: 'USDT',
        amount: String(100n * USDT),
      })
      await client.ok(api.intentSubmit, {
        id: intent.id,
        signature: await pay(connection, Keypair.fromSeed(wallet.secret), intent),
      })

      /** The call with `key`: the server dies after its commit, is restarted, and the retry gets the stored answer. */
      const crashThenRetry = async (route: RouteDef, body: Record<string, unknown>, key: string) => {
        const lost = await client.send(route, body, { [IDEMPOTENCY_HEADER]: key }).then(
          () => 'answered',
          () => 'no answer',
        )
        expect(lost).toBe('no answer')
        const died = await (server as Instance).exited
        expect(died.signal, JSON.stringify(died)).toBe('SIGKILL')
        // What the crash left: the answer stored with the work, in the same transaction.
        const stored = await readDatabase(dataDir, database, (db) =>
          db.selectFrom('idempotency_keys').select(['state', 'response']).where('key', '=', key).executeTakeFirst(),
        )
        expect(stored?.state).toBe('done')
        await (server as Instance).start()
        const retried = await client.send(route, body, { [IDEMPOTENCY_HEADER]: key })
        expect(retried.headers.get(IDEMPOTENT_REPLAYED_HEADER)).toBe('true')
        const answer = await retried.text()
        expect(answer).toBe(stored?.response)
        expect(await (await client.send(route, body, { [IDEMPOTENCY_HEADER]: key })).text()).toBe(answer)
        const envelope = JSON.parse(answer) as { code: number; msg: string; data: unknown }
        expect(envelope.code, envelope.msg).toBe(Code.OK)
        return envelope.data
      }
      const wallets = async () =>
        (await client.ok<{ list: { coin: string; available: string; locked: string }[] }>(api.userWallet, {})).list

      // A withdrawal request: the route's transaction.
      const withdrawal = (await crashThenRetry(
        api.withdraw,
        { coin: 'USDT', amount: String(30n * USDT) },
        'withdraw-crash-1',
      )) as Withdrawal
      const { list: asked } = await client.ok<{ list: Withdrawal[] }>(api.withdrawList, { page: 1, limit: 10 })
      expect(asked.map((w) => w.id)).toEqual([withdrawal.id])
      expect((await wallets()).find((a) => a.coin === 'USDT')).toMatchObject({
        available: String(70n * USDT),
        locked: String(30n * USDT),
      })

      // A limit order: a command of the trade market's batch (10 PLG at 0.5 locks 5 USDT).
      const order = (await crashThenRetry(
        api.tradeBuy,
        { price: '500000', amount: String(10n * PLG) },
        'buy-crash-1',
      )) as TradeOrder
      const { list: orders } = await client.ok<{ list: TradeOrder[] }>(api.tradeMyOrders, { page: 1, limit: 10 })
      expect(orders.map((o) => o.id)).toEqual([order.id])
      expect((await wallets()).find((a) => a.coin === 'USDT')).toMatchObject({
        available: String(65n * USDT),
        locked: String(35n * USDT),
      })
    } finally {
      await server?.stop()
      await database?.drop()
      fs.rmSync(dataDir, { recursive: true, force: true })
    }
  }, 300_000)
})
