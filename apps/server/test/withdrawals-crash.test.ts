// The crash-safety rule of docs/money.md, end to end: the real server process is killed (SIGKILL, as a power cut
// would) right after each step of the withdrawal sender, restarted, and must pay the withdrawal exactly once.
import { type ChildProcess, spawn } from 'node:child_process'
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { getAssociatedTokenAddressSync } from '@solana/spl-token'
import { Connection, Keypair, PublicKey } from '@solana/web3.js'
import {
  API_BASE,
  api,
  type BodyOf,
  Code,
  type Envelope,
  LOGIN_TYPE,
  type PaymentIntent,
  type RouteDef,
  type Withdrawal,
} from '@solpledge/contract'
import { type Localnet, startLocalnet } from '@solpledge/localnet'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openDatabase } from '../src/db/index.ts'
import { createPostgresDatabase, dbKind, TestWallet } from './helpers.ts'
import { pay } from './money.ts'

const ROOT = path.resolve(import.meta.dirname, '../../..')
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
    connection = new Connection(localnet.rpcUrl, { commitment: 'confirmed', wsEndpoint: localnet.wsUrl })
    mint = localnet.tokens.find((t) => t.symbol === 'USDT')?.mint as string
  }, 60_000)
  afterAll(() => localnet?.close())

  /** The owner's USDT on chain (its associated token account; 0 when missing). */
  const usdtOf = async (owner: string) => {
    const account = getAssociatedTokenAddressSync(new PublicKey(mint), new PublicKey(owner))
    const balance = await connection.getTokenAccountBalance(account).catch(() => undefined)
    return BigInt(balance?.value.amount ?? 0)
  }

  // Each case starts the server twice (tsx compiles it each time): its timeout and startServer's are bounds for a
  // loaded machine (30 s for a start was too short on one), not waits.
  for (const step of ['stored', 'sent', 'confirmed'] as const) {
    it(`crash right after '${step}': paid exactly once after the restart`, async () => {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'solpledge-crash-'))
      const database = await freshDatabaseUrl()
      const env = {
        DATA_DIR: dataDir,
        PORT: String(await freePort()),
        SOLPLEDGE_LOCAL_CHAIN: '1',
        SOLANA_CLUSTER: 'localnet',
        SOLANA_RPC_URL: localnet.rpcUrl,
        SOLANA_WS_URL: localnet.wsUrl,
        SENDER_INTERVAL_MS: '200',
        WATCHER_INTERVAL_MS: '0',
        LOG_LEVEL: 'warn',
        ...(database ? { DATABASE_URL: database.url } : {}),
      }
      let server: Server | undefined
      /** Reads the withdrawal straight from the database while no server runs (PGlite allows one process). */
      const readWithdrawal = async (id: string) => {
        const db = await openDatabase(database ? { url: database.url } : { dir: path.join(dataDir, 'pglite') })
        try {
          return await db.selectFrom('withdrawals').selectAll().where('id', '=', id).executeTakeFirstOrThrow()
        } finally {
          await db.destroy()
        }
      }
      try {
        server = await startServer({ ...env, CRASH_AT: step })
        const client = new Client(server.url)
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
        // tsx runs the server in a child process and exits with 128 + 9 when that child is killed by SIGKILL.
        const died = await server.exited
        expect(died.signal === 'SIGKILL' || died.code === 137, JSON.stringify(died)).toBe(true)
        // What the crash left behind: the payout stored (and, after 'stored', not yet on chain), or settled.
        const atCrash = await readWithdrawal(withdrawal.id)
        expect(atCrash.status).toBe(step === 'confirmed' ? 'confirmed' : 'sent')
        if (step === 'stored') {
          const { value } = await connection.getSignatureStatus(atCrash.signature as string)
          expect(value).toBeNull()
        }

        server = await startServer(env)
        const restarted = new Client(server.url, client.auth)
        const deadline = Date.now() + 20_000
        for (;;) {
          const { list } = await restarted.ok<{ list: Withdrawal[] }>(api.withdrawList, { page: 1, limit: 10 })
          expect(list).toHaveLength(1)
          if (list[0]?.status === 'confirmed') break
          expect(list[0]?.status).toBe('sent')
          if (Date.now() > deadline) throw new Error(`withdrawal still ${list[0]?.status} after the restart`)
          await new Promise((resolve) => setTimeout(resolve, 200))
        }
        // A few more sender passes must not pay again.
        await new Promise((resolve) => setTimeout(resolve, 1_000))
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

interface Server {
  url: string
  rootAddress: string
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>
  stop: () => Promise<void>
}

/** Starts `apps/server/src/server.ts` as its own process and waits for its ready line. */
async function startServer(env: Record<string, string>): Promise<Server> {
  const child: ChildProcess = spawn(path.join(ROOT, 'node_modules/.bin/tsx'), ['apps/server/src/server.ts'], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  )
  const ready = await new Promise<RegExpMatchArray>((resolve, reject) => {
    // A server not ready in time is stopped (SIGTERM: tsx passes it on to the server it runs) and waited for, so that
    // the clean-up does not race its writes.
    let late = false
    const timer = setTimeout(() => {
      late = true
      child.kill('SIGTERM')
    }, 120_000)
    const onData = (chunk: Buffer) => {
      output += chunk.toString()
      const match = output.match(/solpledge ready url=(\S+) root_invite_code=(\S+)/)
      if (match) {
        clearTimeout(timer)
        resolve(match)
      }
    }
    child.stdout?.on('data', onData)
    child.stderr?.on('data', onData)
    void exited.then(() => {
      clearTimeout(timer)
      reject(new Error(`${late ? 'server not ready after 120 s' : 'server exited before it was ready'}:\n${output}`))
    })
  })
  return {
    // The server listens on 127.0.0.1; `localhost` may resolve to ::1.
    url: (ready[1] as string).replace('localhost', '127.0.0.1'),
    rootAddress: ready[2] as string,
    exited,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM')
      await exited
    },
  }
}

/** A user's HTTP client of the running server. */
class Client {
  constructor(
    readonly url: string,
    public auth: { token: string; address: string } | undefined = undefined,
  ) {}

  async call<R extends RouteDef>(route: R, body: BodyOf<R> | Record<string, unknown>): Promise<Envelope> {
    const response = await fetch(this.url + API_BASE + route.path, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'accept-language': 'en',
        ...(this.auth ? { 'user-token': this.auth.token, 'user-address': this.auth.address } : {}),
      },
      body: JSON.stringify(body),
    })
    return (await response.json()) as Envelope
  }

  async ok<T>(route: RouteDef, body: Record<string, unknown>): Promise<T> {
    const res = await this.call(route, body)
    if (res.code !== Code.OK) throw new Error(`${route.path}: ${res.code} ${res.msg}`)
    return res.data as T
  }

  /** The web app's login: nonce, sign the message, registerThird with the invite code. */
  async login(wallet: TestWallet, inviteCode: string) {
    const { message } = await this.ok<{ message: string }>(api.nonce, { address: wallet.address })
    const { token } = await this.ok<{ token: string }>(api.registerThird, {
      type: LOGIN_TYPE,
      address: wallet.address,
      sign: wallet.sign(message),
      invite_code: inviteCode,
      message,
    })
    this.auth = { token, address: wallet.address }
  }
}

function readAddress(keyFile: string): string {
  const secretKey = Uint8Array.from(JSON.parse(fs.readFileSync(keyFile, 'utf8')) as number[])
  return Keypair.fromSecretKey(secretKey).publicKey.toBase58()
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo
      server.close(() => resolve(port))
    })
  })
}

/** On PostgreSQL (TEST_DATABASE_URL), a new empty database for the server to migrate; otherwise PGlite in DATA_DIR. */
async function freshDatabaseUrl(): Promise<{ url: string; drop: () => Promise<void> } | undefined> {
  const adminUrl = process.env.TEST_DATABASE_URL
  // (force): the killed server's connections may linger until PostgreSQL notices they are gone.
  return adminUrl ? createPostgresDatabase(adminUrl, { force: true }) : undefined
}
