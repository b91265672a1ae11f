// The simulated world of one run: the database (engine.ts), the local chain in this process, the simulated clock, and
// the server itself — built with buildApp as the API tests build it, its jobs driven one pass at a time through the
// jobs runner — in one incarnation after another: a crash drops the incarnation with everything it held in memory and
// boots the next on the same database and chain, as a restarted process would.
import { createHash } from 'node:crypto'
import os from 'node:os'
import path from 'node:path'
import { ed25519 } from '@noble/curves/ed25519'
import { getBase58Decoder } from '@solana/kit'
import {
  createAssociatedTokenAccountIdempotentInstruction,
  createTransferCheckedInstruction,
  getAssociatedTokenAddressSync,
  TOKEN_PROGRAM_ID,
} from '@solana/spl-token'
import { Keypair, PublicKey, Transaction } from '@solana/web3.js'
import { API_BASE, type Envelope, type RouteDef } from '@solpledge/contract'
import { type LocalChain, openLocalChain, type TransactionRecord } from '@solpledge/localnet'
import { type App, buildApp } from '../src/app.ts'
import { createChain } from '../src/chain/rpc.ts'
import { type Config, loadConfig } from '../src/config.ts'
import type { Database } from '../src/db/index.ts'
import { jobPasses } from '../src/jobs/runner.ts'
import { faults as idempotencyFaults } from '../src/lib/idempotency.ts'
import type { JobName } from '../src/lib/jobs.ts'
import { addressOf, type StoredKeypair } from '../src/lib/keys.ts'
import { seed as seedPlatform } from '../src/modules/system/seed.ts'
import { newHotWalletStatus, type Platform } from '../src/platform.ts'
import { advanceClock, clockNow, installClock, START_MS } from './clock.ts'
import { type Engine, openEngine } from './engine.ts'
import { type Context, type FaultClass, FaultInjector, type Process, type StepFaults } from './faults.ts'

/** A slot of the local chain lasts 400 ms of simulated time, as on mainnet; one clock move ticks at most this many. */
const SLOT_MS = 400
const MAX_TICKS = 300

/** 32 bytes derived from the run's seed and a name: every key of a run is one. */
export const derive = (seed: number, name: string) =>
  new Uint8Array(createHash('sha256').update(`solpledge-sim:${seed}:${name}`).digest())

/** An ed25519 wallet: signs messages as Phantom's signMessage does, and transactions as a web3.js Keypair. */
export class SimWallet {
  readonly address: string
  readonly keypair: Keypair
  constructor(readonly secret: Uint8Array) {
    this.address = addressOf(ed25519.getPublicKey(secret))
    this.keypair = Keypair.fromSeed(secret)
  }
  sign(message: string): string {
    return Buffer.from(ed25519.sign(new TextEncoder().encode(message), this.secret)).toString('hex')
  }
  get stored(): StoredKeypair {
    const secretKey = new Uint8Array(64)
    secretKey.set(this.secret)
    secretKey.set(ed25519.getPublicKey(this.secret), 32)
    return { address: this.address, secretKey }
  }
}

/** One incarnation of the server process. */
export interface Incarnation extends Process {
  number: number
  db: Database
  app: App
  platform: Platform
  jobs: Record<JobName, () => Promise<unknown>>
}

/** An answer of the API as the client saw it: the exact bytes, and the envelope read from them. */
export interface Answer {
  status: number
  text: string
  envelope: Envelope
}

/** A JSON-RPC body as kit hands it to a transport (bigints inside) → what it would be after a trip through HTTP. */
function plainJson(value: unknown): unknown {
  if (typeof value === 'bigint') return Number(value)
  if (Array.isArray(value)) return value.map(plainJson)
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plainJson(v)]))
  return value
}

/** An answer of the local chain → as kit's HTTP transport parses it: every integer a bigint, no undefined fields. */
function kitJson(value: unknown): unknown {
  if (typeof value === 'number') return Number.isInteger(value) ? BigInt(value) : value
  if (Array.isArray(value)) return value.map(kitJson)
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value)
        .filter(([, v]) => v !== undefined)
        .map(([k, v]) => [k, kitJson(v)]),
    )
  return value
}

export interface WorldOptions {
  seed: number
  classes: ReadonlySet<FaultClass>
  databaseUrl?: string | undefined
}

export class World {
  readonly faults: FaultInjector
  incarnation!: Incarnation
  /** Every transaction that landed on the chain, in order. */
  readonly landed: TransactionRecord[] = []
  /** Transactions accepted by a 'late' RPC fault, waiting to land. */
  private readonly held: { wire: Uint8Array; slot: number }[] = []
  /** Tokens the simulator minted to the platform's wallets itself (their first funding), by mint. */
  readonly minted = new Map<string, bigint>()
  readonly treasury: SimWallet
  readonly hotWallet: SimWallet
  readonly root: SimWallet
  config!: Config
  private incarnations = 0

  private constructor(
    readonly seed: number,
    readonly engine: Engine,
    readonly local: LocalChain,
  ) {
    this.treasury = new SimWallet(derive(seed, 'treasury'))
    this.hotWallet = new SimWallet(derive(seed, 'hot-wallet'))
    this.root = new SimWallet(derive(seed, 'root'))
    this.faults = new FaultInjector(new Set(), async () => undefined)
  }

  static async create(options: WorldOptions): Promise<World> {
    installClock(START_MS)
    const engine = await openEngine(options.databaseUrl)
    const local = await openLocalChain({ seed: `solpledge-sim:${options.seed}` })
    const world = new World(options.seed, engine, local)
    local.chain.onTransaction.on((record) => world.landed.push(record))
    ;(world as { faults: FaultInjector }).faults = new FaultInjector(options.classes, (xid) => world.commitStatus(xid))
    // The point after a money call's commit, before its answer is sent, that the route offers (lib/idempotency.ts).
    idempotencyFaults.afterCommit = (call) => world.faults.afterCommit(world.incarnation, call)
    await world.start()
    return world
  }

  /** The first start: configuration, platform, the server's own seed (assets checked on chain, root, business config). */
  private async start() {
    const mint = (symbol: string) => this.local.tokens.find((t) => t.symbol === symbol)?.mint
    this.config = {
      ...loadConfig({
        SOLANA_CLUSTER: 'devnet',
        // Two endpoints: the failover runs (both reach the same chain, each through the faults).
        SOLANA_RPC_URL: 'http://rpc-a.sim.invalid,http://rpc-b.sim.invalid',
        SOLANA_PUBLIC_RPC_URL: 'http://rpc-a.sim.invalid',
        PRODUCT_MINT: mint('PLG'),
        USDT_MINT: mint('USDT'),
        TREASURY_ADDRESS: this.treasury.address,
        TREASURY_KEY: JSON.stringify([...this.treasury.stored.secretKey]),
        HOT_WALLET_KEY: JSON.stringify([...this.hotWallet.stored.secretKey]),
        ROOT_ADDRESS: this.root.address,
        PUBLIC_URL: 'https://app.sim.invalid',
        SEED_DEMO: '1',
        OPERATOR_TOKEN: 'sim-operator-token',
        DATA_DIR: path.join(os.tmpdir(), 'solpledge-sim-unused'),
      }),
      loginRateLimit: 1_000_000,
    }
    // The hot wallet's SOL and tokens, as an operator funds it before opening.
    const funding: Record<string, bigint> = { PLG: 10_000_000n * 10n ** 9n, USDT: 10_000_000n * 10n ** 6n }
    await this.local.faucet(this.hotWallet.address, { sol: 1_000_000_000_000n, tokens: funding })
    await this.local.faucet(this.treasury.address, { sol: 100_000_000_000n })
    for (const [symbol, amount] of Object.entries(funding)) this.minted.set(mint(symbol) as string, amount)
    await this.tick(1)
    await this.boot()
    await this.withContext('none', () => seedPlatform(this.incarnation.db, this.config, this.incarnation.platform))
  }

  /** A new incarnation of the server: its own connections, chain clients, app and job closures. */
  private async boot() {
    const process: Process = { dead: false }
    const chain = {
      serve: (payload: unknown) => this.local.request(plainJson(payload)).then(kitJson),
      tick: (slots: number) => this.tick(slots),
      hold: (payload: unknown, slots: number) => this.hold(payload, slots),
    }
    const platform: Platform = {
      chain: createChain([this.config.rpcUrl, ...this.config.rpcFallbackUrls], 'ws://sim.invalid', {
        priorityFee: this.config.priorityFee,
        // The failover's rests follow the simulated clock; no wall-clock pause between tries.
        backoff: { baseMs: 0 },
        transport: () => this.faults.transport(process, chain),
      }),
      rpcUrl: this.config.rpcUrl,
      treasury: { address: this.treasury.address, key: this.treasury.stored },
      hotWallet: this.hotWallet.stored,
      hotWalletStatus: newHotWalletStatus(),
      localChain: false,
      operatorToken: this.config.operatorToken as string,
    }
    const db = await this.engine.open(this.faults.dbHook(process))
    const app = await buildApp({ db, config: this.config, platform })
    await app.ready()
    this.incarnation = Object.assign(process, {
      number: ++this.incarnations,
      db,
      app,
      platform,
      jobs: jobPasses({ db, config: this.config, platform, log: app.log }),
    })
  }

  /** After a crash: the dead incarnation is dropped (its work already failed), the next one boots. */
  async restart() {
    const dead = this.incarnation
    dead.dead = true
    await dead.app.close()
    await this.engine.release(dead.db)
    await this.boot()
  }

  get crashed() {
    return this.incarnation.dead
  }

  /** Runs `work` with the faults of `context` (requests and job passes may be faulted, the simulator's own work not). */
  async withContext<T>(context: Context, work: () => Promise<T>): Promise<T> {
    const previous = this.faults.context
    this.faults.context = context
    try {
      return await work()
    } finally {
      this.faults.context = previous
    }
  }

  beginStep(plan: StepFaults) {
    this.faults.begin(plan, 'none')
  }

  /**
   * A client's call: POST through app.inject with the caller's headers (and an Idempotency-Key). 'crashed' when the
   * process died under it: the client got no answer.
   */
  async call(
    route: RouteDef,
    body: unknown,
    headers: Record<string, string>,
    key?: string,
    context: Context = 'request',
  ): Promise<Answer | 'crashed'> {
    if (this.crashed) return 'crashed'
    const response = await this.withContext(context, () =>
      this.incarnation.app.inject({
        method: 'POST',
        url: API_BASE + route.path,
        payload: body as Record<string, unknown>,
        headers: { 'accept-language': 'en', ...headers, ...(key ? { 'idempotency-key': key } : {}) },
      }),
    )
    if (this.crashed) return 'crashed'
    return { status: response.statusCode, text: response.body, envelope: JSON.parse(response.body) as Envelope }
  }

  /** One pass of a job, as the runner runs it: its failure (undefined when it passed), or 'crashed'. */
  async job(name: JobName): Promise<unknown> {
    if (this.crashed) return 'crashed'
    const failure = await this.withContext('job', () => this.incarnation.jobs[name]())
    return this.crashed ? 'crashed' : failure
  }

  /** Moves the simulated time on: the chain produces its slots (a few hundred at most), the database's clock follows. */
  async advance(ms: number) {
    advanceClock(ms)
    await this.engine.syncClock()
    await this.tick(Math.max(1, Math.min(MAX_TICKS, Math.floor(ms / SLOT_MS))))
  }

  get now() {
    return clockNow()
  }

  /** Produces `slots` slots, landing the held transactions whose time came (if their blockhash still allows). */
  async tick(slots: number) {
    for (let i = 0; i < slots; i++) {
      this.local.chain.tick()
      for (const entry of this.held.filter((h) => h.slot <= this.local.chain.slot)) {
        this.held.splice(this.held.indexOf(entry), 1)
        try {
          this.local.chain.submit(entry.wire)
        } catch {
          // Expired meanwhile, or refused by the node's preflight: it never lands.
        }
      }
    }
  }

  /** A sendTransaction the network accepted but delivers `slots` later; returns its signature. */
  private hold(payload: unknown, slots: number): string | undefined {
    const [data] = (payload as { params: [string] }).params
    const wire = new Uint8Array(Buffer.from(data, 'base64'))
    this.held.push({ wire, slot: this.local.chain.slot + slots })
    // The transaction's signature: the first one, 64 bytes after the one-byte count.
    return getBase58Decoder().decode(wire.subarray(1, 65))
  }

  /** What the database says of a transaction whose COMMIT answer was lost (PGlite: asked here; PostgreSQL: by the driver). */
  private async commitStatus(xid: string): Promise<string | null | undefined> {
    if (this.engine.kind === 'postgres') return undefined
    const [row] = await this.engine.raw('select txid_status($1::bigint) as status', [xid])
    return (row?.status as string | null) ?? null
  }

  /** The simulator's own chain work as a user's wallet does it: SOL and tokens from the faucet. */
  async fund(address: string, tokens: Record<string, bigint>) {
    await this.local.faucet(address, { sol: 10_000_000_000n, tokens })
    await this.tick(1)
  }

  /** A token transfer signed by `payer` (a user paying an intent, or the treasury refilling the hot wallet). */
  pay(payer: SimWallet, to: { owner: string; mint: string; amount: bigint; reference?: string | undefined }): string {
    const mint = new PublicKey(to.mint)
    const decimals = this.local.tokens.find((t) => t.mint === to.mint)?.decimals as number
    const owner = new PublicKey(to.owner)
    const from = getAssociatedTokenAddressSync(mint, payer.keypair.publicKey, false, TOKEN_PROGRAM_ID)
    const destination = getAssociatedTokenAddressSync(mint, owner, true, TOKEN_PROGRAM_ID)
    const transfer = createTransferCheckedInstruction(
      from,
      mint,
      destination,
      payer.keypair.publicKey,
      to.amount,
      decimals,
      [],
      TOKEN_PROGRAM_ID,
    )
    if (to.reference) transfer.keys.push({ pubkey: new PublicKey(to.reference), isSigner: false, isWritable: false })
    const tx = new Transaction().add(
      createAssociatedTokenAccountIdempotentInstruction(
        payer.keypair.publicKey,
        destination,
        owner,
        mint,
        TOKEN_PROGRAM_ID,
      ),
      transfer,
    )
    tx.recentBlockhash = this.local.chain.latestBlockhash().blockhash
    tx.feePayer = payer.keypair.publicKey
    tx.sign(payer.keypair)
    return this.local.chain.submit(new Uint8Array(tx.serialize()))
  }

  async close() {
    idempotencyFaults.afterCommit = undefined
    await this.incarnation.app.close()
    await this.engine.close()
  }
}
