import { ed25519 } from '@noble/curves/ed25519'
import {
  Connection,
  Keypair,
  type PublicKey,
  type SendOptions,
  type Transaction,
  VersionedMessage,
  VersionedTransaction,
} from '@solana/web3.js'
import { decodeBase58, encodeBase58 } from './base58.ts'
import {
  DEMO_WALLET_TRUSTED_KEY,
  keypairFromSecretKey,
  readDemoWalletStorage,
  type StorageLike,
  writeDemoWalletStorage,
} from './storage.ts'

export type AnyTransaction = Transaction | VersionedTransaction

/** What the wallet needs from a web3.js `Connection` (injectable for tests). */
export type DemoWalletConnection = Pick<Connection, 'sendRawTransaction' | 'getLatestBlockhash'>

export interface DemoWalletOptions {
  /** RPC endpoint `signAndSendTransaction` submits to (the local chain). */
  rpcUrl: string
  /** Where keys live; defaults to `globalThis.localStorage`. */
  storage?: StorageLike
  /** Overrides the `Connection` built from `rpcUrl`. */
  connection?: DemoWalletConnection
}

/**
 * Events, with Phantom's payloads. `change` is demo-wallet specific: the account list or the active account changed
 * (also while disconnected); the widget listens to it.
 */
export interface DemoWalletEvents {
  connect: [publicKey: PublicKey]
  disconnect: []
  accountChanged: [publicKey: PublicKey | null]
  change: []
}
export type DemoWalletEvent = keyof DemoWalletEvents
export type DemoWalletListener<E extends DemoWalletEvent> = (...args: DemoWalletEvents[E]) => void

/** Errors carry Phantom's (EIP-1193 style) codes. */
export class DemoWalletError extends Error {
  readonly code: number
  constructor(code: number, message: string) {
    super(message)
    this.name = 'DemoWalletError'
    this.code = code
  }
}
const userRejected = () => new DemoWalletError(4001, 'User rejected the request.')
const unauthorized = () =>
  new DemoWalletError(4100, 'The requested method and/or account has not been authorized by the user.')
const invalidParams = (message: string) => new DemoWalletError(-32602, message)

export interface DemoWalletRequest {
  method: string
  params?: unknown
}

function isVersioned(tx: AnyTransaction): tx is VersionedTransaction {
  // Same test as wallet-adapter-base's isVersionedTransaction; works across copies of web3.js.
  return 'version' in tx
}

/**
 * A Phantom-compatible injected provider (`window.phantom.solana`) that signs with keypairs kept in storage and
 * approves every request without a prompt. For the local chain and tests only.
 */
export class DemoWallet {
  readonly isPhantom = true
  readonly isDemoWallet = true
  readonly rpcUrl: string

  readonly #storage: StorageLike
  readonly #listeners = new Map<DemoWalletEvent, Set<(...args: never[]) => void>>()
  #keypairs: Keypair[]
  #active: number
  #connected = false
  #connection: DemoWalletConnection | undefined

  constructor(options: DemoWalletOptions) {
    const storage = options.storage ?? (globalThis as { localStorage?: StorageLike }).localStorage
    if (!storage) throw new Error('DemoWallet needs a storage (no localStorage in this environment)')
    this.#storage = storage
    this.rpcUrl = options.rpcUrl
    this.#connection = options.connection
    const stored = readDemoWalletStorage(storage)
    if (stored) {
      this.#keypairs = stored.keypairs
      this.#active = stored.active
    } else {
      this.#keypairs = [Keypair.generate()]
      this.#active = 0
    }
    // Normalises what was read (drops invalid entries, clamps the index) or saves the generated key.
    this.#save()
  }

  // ---- Phantom provider surface ----

  /** The active account's key while connected, otherwise null (as Phantom). */
  get publicKey(): PublicKey | null {
    return this.#connected ? this.#activeKeypair().publicKey : null
  }

  get isConnected(): boolean {
    return this.#connected
  }

  /**
   * Approves at once. With `onlyIfTrusted`, succeeds only if this storage connected before (else rejects with code
   * 4001, as Phantom does for an untrusted app).
   */
  async connect(options?: { onlyIfTrusted?: boolean }): Promise<{ publicKey: PublicKey }> {
    if (options?.onlyIfTrusted && !this.isTrusted()) throw userRejected()
    this.#storage.setItem(DEMO_WALLET_TRUSTED_KEY, '1')
    const publicKey = this.#activeKeypair().publicKey
    if (!this.#connected) {
      this.#connected = true
      this.emit('connect', publicKey)
    }
    return { publicKey }
  }

  /** Disconnects the app (keeps it trusted, as Phantom) and emits `disconnect`. */
  async disconnect(): Promise<void> {
    if (!this.#connected) return
    this.#connected = false
    this.emit('disconnect')
  }

  /** Ed25519 detached signature of `message` by the active account. `display` is accepted and ignored. */
  async signMessage(
    message: Uint8Array,
    _display?: 'utf8' | 'hex',
  ): Promise<{ signature: Uint8Array; publicKey: PublicKey }> {
    const keypair = this.#requireConnected()
    if (!(message instanceof Uint8Array)) throw invalidParams('signMessage expects a Uint8Array')
    const signature = ed25519.sign(message, keypair.secretKey.slice(0, 32))
    return { signature, publicKey: keypair.publicKey }
  }

  /**
   * Adds the active account's signature to a legacy `Transaction` (needs `feePayer` and `recentBlockhash`) or a
   * `VersionedTransaction`, keeping other signatures. Signs in place and returns the same object.
   */
  async signTransaction<T extends AnyTransaction>(transaction: T): Promise<T> {
    const keypair = this.#requireConnected()
    this.#sign(transaction, keypair)
    return transaction
  }

  async signAllTransactions<T extends AnyTransaction>(transactions: T[]): Promise<T[]> {
    const keypair = this.#requireConnected()
    for (const transaction of transactions) this.#sign(transaction, keypair)
    return transactions
  }

  /**
   * Signs and submits through `Connection.sendRawTransaction(raw, options)` on `rpcUrl`. A legacy transaction without
   * a fee payer or blockhash gets the active account and the latest blockhash (as Phantom fills them in).
   */
  async signAndSendTransaction(
    transaction: AnyTransaction,
    options?: SendOptions,
  ): Promise<{ signature: string; publicKey: PublicKey }> {
    const keypair = this.#requireConnected()
    const connection = this.#getConnection()
    if (!isVersioned(transaction)) {
      transaction.feePayer ??= keypair.publicKey
      if (!transaction.recentBlockhash) {
        const latest = await connection.getLatestBlockhash(options?.preflightCommitment)
        transaction.recentBlockhash = latest.blockhash
        transaction.lastValidBlockHeight ??= latest.lastValidBlockHeight
      }
    }
    this.#sign(transaction, keypair)
    const signature = await connection.sendRawTransaction(transaction.serialize(), options)
    return { signature, publicKey: keypair.publicKey }
  }

  /**
   * Phantom's `request` form. Transaction methods take `params.message` (`params.messages` for signAllTransactions)
   * as a transaction object or as a base58 serialized message / transaction, and answer with base58 strings.
   */
  async request(args: DemoWalletRequest): Promise<unknown> {
    const params = (args.params ?? {}) as Record<string, unknown>
    switch (args.method) {
      case 'connect':
        return this.connect({ onlyIfTrusted: params.onlyIfTrusted === true })
      case 'disconnect':
        await this.disconnect()
        return null
      case 'signMessage': {
        const message = params.message
        if (!(message instanceof Uint8Array)) throw invalidParams('params.message must be a Uint8Array')
        return this.signMessage(message, params.display as 'utf8' | 'hex' | undefined)
      }
      case 'signTransaction': {
        const transaction = toTransaction(params.message ?? params.transaction)
        await this.signTransaction(transaction)
        return this.#signedResult(transaction)
      }
      case 'signAllTransactions': {
        const raw = params.messages ?? params.message ?? params.transactions
        if (!Array.isArray(raw)) throw invalidParams('params.messages must be an array')
        const transactions = raw.map(toTransaction)
        await this.signAllTransactions(transactions)
        const results = transactions.map((tx) => this.#signedResult(tx))
        return {
          publicKey: this.#activeKeypair().publicKey.toBase58(),
          signatures: results.map((r) => r.signature),
          transactions: results.map((r) => r.transaction),
        }
      }
      case 'signAndSendTransaction': {
        const transaction = toTransaction(params.message ?? params.transaction)
        const { signature, publicKey } = await this.signAndSendTransaction(
          transaction,
          params.options as SendOptions | undefined,
        )
        return { signature, publicKey: publicKey.toBase58() }
      }
      default:
        throw new DemoWalletError(
          -32601,
          `The method ${JSON.stringify(args.method)} does not exist / is not available.`,
        )
    }
  }

  // ---- events (the subset of eventemitter3 that wallet adapters use) ----

  on<E extends DemoWalletEvent>(event: E, listener: DemoWalletListener<E>): this {
    let set = this.#listeners.get(event)
    if (!set) {
      set = new Set()
      this.#listeners.set(event, set)
    }
    set.add(listener as (...args: never[]) => void)
    return this
  }

  addListener<E extends DemoWalletEvent>(event: E, listener: DemoWalletListener<E>): this {
    return this.on(event, listener)
  }

  once<E extends DemoWalletEvent>(event: E, listener: DemoWalletListener<E>): this {
    const wrapper = ((...args: DemoWalletEvents[E]) => {
      this.off(event, wrapper)
      listener(...args)
    }) as DemoWalletListener<E>
    return this.on(event, wrapper)
  }

  off<E extends DemoWalletEvent>(event: E, listener: DemoWalletListener<E>): this {
    this.#listeners.get(event)?.delete(listener as (...args: never[]) => void)
    return this
  }

  removeListener<E extends DemoWalletEvent>(event: E, listener: DemoWalletListener<E>): this {
    return this.off(event, listener)
  }

  removeAllListeners(event?: DemoWalletEvent): this {
    if (event) this.#listeners.delete(event)
    else this.#listeners.clear()
    return this
  }

  listenerCount(event: DemoWalletEvent): number {
    return this.#listeners.get(event)?.size ?? 0
  }

  emit<E extends DemoWalletEvent>(event: E, ...args: DemoWalletEvents[E]): boolean {
    const set = this.#listeners.get(event)
    if (!set || set.size === 0) return false
    for (const listener of [...set]) (listener as (...a: DemoWalletEvents[E]) => void)(...args)
    return true
  }

  // ---- account management ----

  /** Public keys of all accounts, in storage order. */
  accounts(): PublicKey[] {
    return this.#keypairs.map((kp) => kp.publicKey)
  }

  get activeIndex(): number {
    return this.#active
  }

  /** The active account's key, connected or not. */
  get activePublicKey(): PublicKey {
    return this.#activeKeypair().publicKey
  }

  /** Whether `connect({ onlyIfTrusted: true })` would succeed. */
  isTrusted(): boolean {
    return this.#storage.getItem(DEMO_WALLET_TRUSTED_KEY) === '1'
  }

  /** Makes account `index` active; while connected emits `accountChanged` with its public key. */
  switchAccount(index: number): PublicKey {
    if (!Number.isInteger(index) || index < 0 || index >= this.#keypairs.length) {
      throw new RangeError(`Account index ${index} is out of range 0..${this.#keypairs.length - 1}`)
    }
    const publicKey = this.#keypairs[index]?.publicKey as PublicKey
    if (index === this.#active) return publicKey
    this.#active = index
    this.#save()
    if (this.#connected) this.emit('accountChanged', publicKey)
    this.emit('change')
    return publicKey
  }

  /**
   * Adds an account from a 64-byte secret key (bytes or base58), or a fresh one, and returns its index (the existing
   * index if the key is already there). Does not switch to it.
   */
  addAccount(secretKey?: Uint8Array | string): number {
    const keypair = secretKey === undefined ? Keypair.generate() : keypairFromSecretKey(secretKey)
    const existing = this.#keypairs.findIndex((kp) => kp.publicKey.equals(keypair.publicKey))
    if (existing >= 0) return existing
    this.#keypairs.push(keypair)
    this.#save()
    this.emit('change')
    return this.#keypairs.length - 1
  }

  /** The active account's 64-byte secret key in base58 (the format Phantom's "import private key" accepts). */
  exportActiveSecretKey(): string {
    return encodeBase58(this.#activeKeypair().secretKey)
  }

  // ---- internals ----

  #activeKeypair(): Keypair {
    return this.#keypairs[this.#active] as Keypair
  }

  #requireConnected(): Keypair {
    if (!this.#connected) throw unauthorized()
    return this.#activeKeypair()
  }

  #save(): void {
    writeDemoWalletStorage(this.#storage, this.#keypairs, this.#active)
  }

  #getConnection(): DemoWalletConnection {
    this.#connection ??= new Connection(this.rpcUrl, 'confirmed')
    return this.#connection
  }

  #sign(transaction: AnyTransaction, keypair: Keypair): void {
    // Both keep existing signatures and throw if the key is not a required signer.
    if (isVersioned(transaction)) transaction.sign([keypair])
    else transaction.partialSign(keypair)
  }

  #signedResult(transaction: AnyTransaction): { signature: string; publicKey: string; transaction: string } {
    const publicKey = this.#activeKeypair().publicKey
    let signature: Uint8Array | null | undefined
    if (isVersioned(transaction)) {
      const index = transaction.message.staticAccountKeys.findIndex((key) => key.equals(publicKey))
      signature = transaction.signatures[index]
    } else {
      signature = transaction.signatures.find((pair) => pair.publicKey.equals(publicKey))?.signature
    }
    if (!signature) throw new Error('Signature missing after signing')
    const serialized = isVersioned(transaction)
      ? transaction.serialize()
      : transaction.serialize({ requireAllSignatures: false, verifySignatures: false })
    return {
      signature: encodeBase58(signature),
      publicKey: publicKey.toBase58(),
      transaction: encodeBase58(serialized),
    }
  }
}

/** A transaction object as is, or a base58 serialized message or transaction (legacy or v0). */
function toTransaction(value: unknown): AnyTransaction {
  if (value && typeof value === 'object' && ('version' in value || 'partialSign' in value)) {
    return value as AnyTransaction
  }
  if (typeof value !== 'string') throw invalidParams('params.message must be a transaction or a base58 string')
  const bytes = decodeBase58(value)
  // A message and a transaction can both parse from the wrong bytes; accept only an exact round trip.
  try {
    const message = VersionedMessage.deserialize(bytes)
    if (sameBytes(message.serialize(), bytes)) return new VersionedTransaction(message)
  } catch {}
  try {
    const transaction = VersionedTransaction.deserialize(bytes)
    if (sameBytes(transaction.serialize(), bytes)) return transaction
  } catch {}
  throw invalidParams('params.message is neither a serialized message nor a serialized transaction')
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, i) => byte === b[i])
}
