// The crash-safety rule of docs/money.md, end to end: the real server process is killed (SIGKILL, as a power cut
// would) right after each step of the withdrawal sender, restarted, and must pay the withdrawal exactly once.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { getAssociatedTokenAddressSync } from '@solana/spl-token'
import { Connection, Keypair, PublicKey } from '@solana/web3.js'
import {
  API_BASE,
  api,
  HEALTH_PATHS,
  type HealthReport,
  type PaymentIntent,
  type Withdrawal,
} from '@solpledge/contract'
import { type Localnet, startLocalnet } from '@solpledge/localnet'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
// @ts-expect-error plain ESM helpers shared with the npm scripts
import { freePort } from '../../../scripts/lib.mjs'
import { JOBS } from '../src/lib/jobs.ts'
import { Client, readDatabase, serverDatabase, serverEnv } from './fixtures/crash.ts'
import { Instance, patientFetch, until } from './fixtures/instances.ts'
import { dbKind, TestWallet } from './helpers.ts'
import { pay } from './money.ts'

const USDT = 1_000_000n
const TOP_UP = 100n * USDT
const AMOUNT = 30n * USDT
const RECEIVE = 29n * USDT // seeded fee: 1 USDT

describe(`withdrawals survive a crash at every sender step (${dbKind})`, () => {
  let localnet: Localnet
  let connection: Connection
  let mint: string
  beforeAll(async () => {
    localnet = await startLocalnet({ port: 0, slotMs: 50 })
    connection = new Connection(localnet.rpcUrl, {
      commitment: 'confirmed',
      wsEndpoint: localnet.wsUrl,
      fetch: patientFetch,
    })
    mint = localnet.tokens.find((t) => t.symbol === 'USDT')?.mint as string
  }, 60_000)
  afterAll(() => localnet?.close())

  /** The owner's USDT on chain (its associated token account; 0 when missing). */
  const usdtOf = async (owner: string) => {
    const account = getAssociatedTokenAddressSync(new PublicKey(mint), new PublicKey(owner))
    const balance = await connection.getTokenAccountBalance(account).catch(() => undefined)
    return BigInt(balance?.value.amount ?? 0)
  }

  // Each case starts the server twice (seconds each: PGlite's start, the seed, the app's schemas): its timeout is a
  // bound for a loaded machine (30 s for a start was too short on one), not a wait.
  // Every step on PostgreSQL; on PGlite the step after 'stored' only, whose restart has the most to do (resend the
  // stored transaction, or replace it once its blockhash expired). What the steps differ in is the sender's code, the
  // same on both databases; what PGlite adds — its data directory keeping the commit made just before a SIGKILL, read
  // by the next process — is proved by this case, by idempotency-crash.test.ts and by settlement-crash.test.ts.
  const steps = dbKind === 'postgres' ? (['stored', 'sent', 'confirmed'] as const) : (['stored'] as const)
  for (const step of steps) {
    it(`crash right after '${step}': paid exactly once after the restart`, async () => {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'solpledge-crash-'))
      const database = await serverDatabase(dataDir)
      const port: number = await freePort()
      const env = serverEnv(localnet, dataDir, database, {
        SENDER_INTERVAL_MS: '200',
        WATCHER_INTERVAL_MS: '0',
        // The sender's outcomes are info lines: the restarted server's confirmation is awaited on its line.
        LOG_LEVEL: 'info',
      })
      let server: Instance | undefined
      /** Reads the withdrawal straight from the database while no server runs. */
      const readWithdrawal = (id: string) =>
        readDatabase(dataDir, database, (db) =>
          db.selectFrom('withdrawals').selectAll().where('id', '=', id).executeTakeFirstOrThrow(),
        )
      try {
        server = new Instance(port, { ...env, CRASH_AT: step })
        await server.start()
        const client = new Client(`http://127.0.0.1:${port}`)
        const wallet = new TestWallet()
        const keypair = Keypair.fromSeed(wallet.secret)
        await client.login(wallet, server.rootAddress)
        await localnet.faucet(wallet.address, { sol: 1_000_000_000n, tokens: { USDT: TOP_UP } })
        const intent = await client.ok<PaymentIntent>(api.intentCreate, {
          purpose: 'recharge',
          coin: 'USDT',
          amount: TOP_UP.toString(),
        })
        const paid = await pay(connection, keypair, intent)
        await client.ok(api.intentSubmit, { id: intent.id, signature: paid })
        const hotWallet = readAddress(path.join(dataDir, 'keys', 'hot-wallet.json'))
        const hotBefore = await usdtOf(hotWallet)
        const userBefore = await usdtOf(wallet.address)

        const withdrawal = await client.ok<Withdrawal>(api.withdraw, { coin: 'USDT', amount: AMOUNT.toString() })
        expect(withdrawal.receive).toBe(RECEIVE.toString())
        const died = await server.exited
        expect(died.signal, JSON.stringify(died)).toBe('SIGKILL')
        // What the crash left behind: the payout stored (and, after 'stored', not yet on chain), or settled.
        const atCrash = await readWithdrawal(withdrawal.id)
        expect(atCrash.status).toBe(step === 'confirmed' ? 'confirmed' : 'sent')
        if (step === 'stored') {
          const { value } = await connection.getSignatureStatus(atCrash.signature as string)
          expect(value).toBeNull()
        }

        server = new Instance(port, env)
        await server.start()
        const restarted = new Client(client.url, client.auth)
        // Paid and settled by the restarted sender: its pass says so (unless the crash came after 'confirmed').
        if (step !== 'confirmed')
          await server.printed(
            (line) => line.includes('"msg":"withdrawal sender pass"') && /"confirmed":1\b/.test(line),
          )
        const { list: after } = await restarted.ok<{ list: Withdrawal[] }>(api.withdrawList, { page: 1, limit: 10 })
        expect(after.map((w) => w.status)).toEqual(['confirmed'])
        // A few more sender passes must not pay again.
        await senderPasses(client.url, 3)
        expect(await usdtOf(wallet.address)).toBe(userBefore + RECEIVE)
        expect(await usdtOf(hotWallet)).toBe(hotBefore - RECEIVE)
        const { list } = await restarted.ok<{ list: { coin: string; available: string; locked: string }[] }>(
          api.userWallet,
          {},
        )
        expect(list.find((a) => a.coin === 'USDT')).toMatchObject({
          available: (TOP_UP - AMOUNT).toString(),
          locked: '0',
        })
        await server.stop()
        // The transaction stored before the crash is the one that paid, resent as is. Only an unsent one ('stored')
        // whose blockhash expired before the restart may have been replaced, and then it never landed.
        const settled = await readWithdrawal(withdrawal.id)
        expect(settled.status).toBe('confirmed')
        if (settled.signature !== atCrash.signature) {
          expect(step).toBe('stored')
          expect(settled.attempts).toBe(1)
          const old = await connection.getSignatureStatus(atCrash.signature as string, {
            searchTransactionHistory: true,
          })
          expect(old.value).toBeNull()
        } else expect(settled.attempts).toBe(0)
      } finally {
        await server?.stop()
        await database?.drop()
        fs.rmSync(dataDir, { recursive: true, force: true })
      }
    }, 300_000)
  }
})

/** Resolves once the sender's heartbeat in the readiness report has moved `count` times: that many passes more. */
async function senderPasses(url: string, count: number) {
  const seen = new Set<string | null>()
  await until(`${count} sender passes`, async () => {
    const response = await fetch(url + API_BASE + HEALTH_PATHS.ready)
    const { data } = (await response.json()) as { data: HealthReport }
    seen.add(data.jobs.find((job) => job.name === JOBS.sender)?.last_ok_at ?? null)
    return seen.size > count
  })
}

function readAddress(keyFile: string): string {
  const secretKey = Uint8Array.from(JSON.parse(fs.readFileSync(keyFile, 'utf8')) as number[])
  return Keypair.fromSecretKey(secretKey).publicKey.toBase58()
}
