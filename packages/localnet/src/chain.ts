import { createHash } from 'node:crypto'
import { mkdir, open, readFile, rename } from 'node:fs/promises'
import { join } from 'node:path'
import {
  type Address,
  type EncodedAccount,
  getTransactionDecoder,
  lamports,
  type MaybeEncodedAccount,
  type Signature,
  type Transaction,
} from '@solana/kit'
import { Clock, FailedTransactionMetadata, LiteSVM, type TransactionMetadata } from 'litesvm'
import {
  fromBase58,
  fromBase64,
  isStaticWritable,
  type ParsedMessage,
  type ParsedTransaction,
  parseTransaction,
  toBase58,
  toBase64,
  verifyTransactionSignatures,
} from './codec.ts'
import {
  describeTransactionError,
  PREFLIGHT_FAILURE,
  RpcError,
  SIGNATURE_VERIFICATION_FAILURE,
  type TransactionErrorJson,
  transactionErrorToJson,
} from './errors.ts'
import { decodeMint, decodeTokenAccount, TOKEN_PROGRAMS, type UiTokenAmount, uiTokenAmount } from './token.ts'

/** A blockhash stays usable for this many blocks after the block that produced it (as on mainnet). */
export const MAX_PROCESSING_AGE = 150
export const LAMPORTS_PER_SIGNATURE = 5000n
export const SLOTS_PER_EPOCH = 432_000
/** Without searchTransactionHistory, getSignatureStatuses only sees this many recent slots (the status cache). */
export const STATUS_CACHE_SLOTS = 300
const SLOT_HASHES_KEPT = 150
/** getRecentPrioritizationFees looks this many slots back (Agave's cache). */
const PRIORITY_FEE_SLOTS = 150
const STATE_FILE = 'localnet-state.json'
const STATE_FORMAT = 1

const SYSTEM_PROGRAM_ID = '11111111111111111111111111111111'
const COMPUTE_BUDGET_PROGRAM_ID = 'ComputeBudget111111111111111111111111111111'
const ADDRESS_LOOKUP_TABLE_PROGRAM_ID = 'AddressLookupTab1e1111111111111111111111111'
const ED25519_PROGRAM_ID = 'Ed25519SigVerify111111111111111111111111111'
const SECP256K1_PROGRAM_ID = 'KeccakSecp256k11111111111111111111111111111'
const SECP256R1_PROGRAM_ID = 'Secp256r1SigVerify1111111111111111111111111'
const BUILTIN_PROGRAMS = new Set([
  SYSTEM_PROGRAM_ID,
  COMPUTE_BUDGET_PROGRAM_ID,
  ADDRESS_LOOKUP_TABLE_PROGRAM_ID,
  'Vote111111111111111111111111111111111111111',
  'Stake11111111111111111111111111111111111111',
  'Config1111111111111111111111111111111111111',
  'BPFLoader1111111111111111111111111111111111',
  'BPFLoader2111111111111111111111111111111111',
  'BPFLoaderUpgradeab1e11111111111111111111111',
  'LoaderV411111111111111111111111111111111111',
])

export interface BlockhashInfo {
  slot: number
  blockHeight: number
  lastValidBlockHeight: number
}

export interface TokenBalance {
  accountIndex: number
  mint: string
  owner: string
  programId: string
  uiTokenAmount: UiTokenAmount
}

export interface CompiledInnerInstruction {
  programIdIndex: number
  accounts: number[]
  /** base58 */
  data: string
  stackHeight: number
}

export interface InnerInstructions {
  index: number
  instructions: CompiledInnerInstruction[]
}

export interface LoadedAddresses {
  writable: string[]
  readonly: string[]
}

export interface ReturnData {
  programId: string
  data: [string, 'base64']
}

/** What the chain remembers about a landed transaction (LiteSVM itself keeps no history usable for RPC). */
export interface TransactionRecord {
  signature: string
  seq: number
  slot: number
  blockTime: number
  wire: Uint8Array
  version: 'legacy' | 0
  /** Static keys followed by loaded writable and loaded readonly addresses. */
  accountKeys: string[]
  loadedAddresses: LoadedAddresses
  err: TransactionErrorJson | null
  fee: number
  preBalances: number[]
  postBalances: number[]
  preTokenBalances: TokenBalance[]
  postTokenBalances: TokenBalance[]
  logMessages: string[]
  innerInstructions: InnerInstructions[]
  computeUnitsConsumed: number
  returnData: ReturnData | null
}

export interface SimulationResult {
  err: TransactionErrorJson | null
  logs: string[]
  unitsConsumed: number
  returnData: ReturnData | null
  innerInstructions: InnerInstructions[]
  accountKeys: string[]
  /** Account states after the simulated transaction, by address (only accounts the transaction touched). */
  postAccounts: Map<string, EncodedAccount>
  replacementBlockhash: { blockhash: string; lastValidBlockHeight: number } | null
  fee: number
}

/** A transaction error raised before execution (e.g. an unknown lookup table). */
class TransactionFailure extends Error {
  constructor(readonly err: TransactionErrorJson) {
    super(describeTransactionError(err))
  }
}

type Listener<T> = (value: T) => void

class Signal<T> {
  private readonly listeners = new Set<Listener<T>>()

  on(listener: Listener<T>): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  emit(value: T): void {
    for (const listener of this.listeners) {
      try {
        listener(value)
      } catch (error) {
        console.error('[localnet] listener failed:', error)
      }
    }
  }
}

export interface AccountsChanged {
  slot: number
  addresses: string[]
}

interface PersistedTransaction extends Omit<TransactionRecord, 'wire'> {
  wire: string
}

interface PersistedState {
  format: number
  savedAt: number
  slotMs: number
  slot: number
  blockHeight: number
  genesisHash: string
  blockhashes: [string, number, number, number][]
  slotHashes: [number, string][]
  extras: Record<string, unknown>
  transactions: PersistedTransaction[]
  svm: string
}

export interface ChainOptions {
  slotMs: number
  stateDir?: string
  /** A fresh chain's genesis hash is derived from this instead of the time: the simulator's chain is reproducible. */
  seed?: string
  /** How often (ms) changed state is written to stateDir. */
  saveIntervalMs?: number
}

const transactionDecoder = getTransactionDecoder()

/**
 * The local chain: a LiteSVM bank plus everything a validator has around it that LiteSVM lacks — slots and block
 * height advancing on a timer, expiring blockhashes, a transaction store with token balances, an address index,
 * change notifications and persistence.
 */
export class Chain {
  slot = 0
  blockHeight = 0
  genesisHash = ''
  /** Free-form data of other modules (faucet keys, demo tokens) persisted with the chain. */
  extras: Record<string, unknown> = {}

  readonly onSlot = new Signal<number>()
  readonly onTransaction = new Signal<TransactionRecord>()
  readonly onAccountsChanged = new Signal<AccountsChanged>()

  private readonly blockhashes = new Map<string, BlockhashInfo>()
  private slotHashes: { slot: bigint; hash: string }[] = []
  private latest = ''
  private readonly transactions: TransactionRecord[] = []
  /** Compute-unit prices of the recent landed transactions and the accounts they wrote (getRecentPrioritizationFees). */
  private priorityFees: { slot: number; microLamports: number; writable: Set<string> }[] = []
  private readonly bySignature = new Map<string, TransactionRecord>()
  private readonly byAddress = new Map<string, TransactionRecord[]>()
  private slotTimer: NodeJS.Timeout | undefined
  private saveTimer: NodeJS.Timeout | undefined
  private dirty = false
  private saving: Promise<void> | undefined
  private closed = false

  private constructor(
    readonly svm: LiteSVM,
    private readonly options: ChainOptions,
  ) {}

  /** Opens the chain: restores it from `stateDir` when a saved state exists, otherwise starts a fresh genesis. */
  static async open(options: ChainOptions): Promise<Chain> {
    const saved = options.stateDir ? await readState(options.stateDir) : undefined
    let chain: Chain
    if (saved) {
      chain = new Chain(LiteSVM.fromBytes(fromBase64(saved.svm)), options)
      chain.restore(saved)
    } else {
      chain = new Chain(new LiteSVM(), options)
      const origin = options.seed ?? `${Date.now()}:${Math.random()}`
      chain.genesisHash = toBase58(createHash('sha256').update(`solpledge-localnet:${origin}`).digest())
      chain.dirty = true
    }
    chain.svm.withSigverify(true).withBlockhashCheck(false)
    chain.svm.expireBlockhash()
    chain.registerLatestBlockhash()
    chain.applyClock()
    return chain
  }

  /** Starts producing slots (and periodic saving when a stateDir is set). */
  start(): void {
    if (this.slotTimer || this.closed) return
    this.slotTimer = setInterval(() => {
      try {
        this.tick()
      } catch (error) {
        console.error('[localnet] producing a slot failed:', error)
      }
    }, this.options.slotMs)
    if (this.options.stateDir) {
      this.saveTimer = setInterval(() => {
        if (this.dirty) void this.save().catch((error) => console.error('[localnet] saving state failed:', error))
      }, this.options.saveIntervalMs ?? 2000)
    }
  }

  /** Stops the timers and writes the state one last time. */
  async close(): Promise<void> {
    if (this.closed) return
    this.closed = true
    clearInterval(this.slotTimer)
    clearInterval(this.saveTimer)
    await this.save()
  }

  get isClosed(): boolean {
    return this.closed
  }

  markDirty(): void {
    this.dirty = true
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Slots and blockhashes
  // ---------------------------------------------------------------------------------------------------------------

  /** Produces the next slot (one block per slot) with a fresh blockhash. */
  tick(): void {
    this.slot += 1
    this.blockHeight += 1
    this.svm.expireBlockhash()
    this.registerLatestBlockhash()
    this.applyClock()
    this.onSlot.emit(this.slot)
  }

  get epoch(): number {
    return Math.floor(this.slot / SLOTS_PER_EPOCH)
  }

  get transactionCount(): number {
    return this.transactions.length
  }

  latestBlockhash(): { blockhash: string; lastValidBlockHeight: number } {
    const info = this.blockhashes.get(this.latest)
    return { blockhash: this.latest, lastValidBlockHeight: info?.lastValidBlockHeight ?? this.blockHeight }
  }

  isBlockhashValid(blockhash: string): boolean {
    const info = this.blockhashes.get(blockhash)
    return info !== undefined && this.blockHeight <= info.lastValidBlockHeight
  }

  private registerLatestBlockhash(): void {
    this.latest = this.svm.latestBlockhash()
    this.blockhashes.set(this.latest, {
      slot: this.slot,
      blockHeight: this.blockHeight,
      lastValidBlockHeight: this.blockHeight + MAX_PROCESSING_AGE,
    })
    for (const [hash, info] of this.blockhashes) {
      if (info.lastValidBlockHeight >= this.blockHeight - MAX_PROCESSING_AGE) break
      this.blockhashes.delete(hash)
    }
    this.slotHashes.unshift({ slot: BigInt(this.slot), hash: this.latest })
    if (this.slotHashes.length > SLOT_HASHES_KEPT) this.slotHashes.length = SLOT_HASHES_KEPT
  }

  private applyClock(): void {
    const epoch = BigInt(this.epoch)
    const now = BigInt(Math.floor(Date.now() / 1000))
    this.svm.setClock(new Clock(BigInt(this.slot), now, epoch, epoch + 1n, now))
    this.svm.setSlotHashes(this.slotHashes)
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Accounts
  // ---------------------------------------------------------------------------------------------------------------

  getAccount(address: string): MaybeEncodedAccount {
    return this.svm.getAccount(address as Address)
  }

  getBalance(address: string): bigint {
    return this.svm.getBalance(address as Address) ?? 0n
  }

  /** Local-chain privilege: makes sure `address` holds at least `minimum` lamports (used to keep the faucet full). */
  ensureLamports(address: string, minimum: bigint): void {
    const account = this.getAccount(address)
    if (account.exists && account.lamports >= minimum) return
    this.svm.setAccount({
      address: address as Address,
      lamports: lamports(minimum),
      programAddress: (account.exists ? account.programAddress : SYSTEM_PROGRAM_ID) as Address,
      executable: account.exists ? account.executable : false,
      data: account.exists ? account.data : new Uint8Array(),
      space: account.exists ? account.space : 0n,
    })
    this.dirty = true
  }

  minimumBalanceForRentExemption(dataLength: number): bigint {
    return this.svm.minimumBalanceForRentExemption(BigInt(dataLength))
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Transactions
  // ---------------------------------------------------------------------------------------------------------------

  /**
   * Executes a wire transaction like sendTransaction does: signature verification, blockhash check, optional preflight
   * simulation, then execution. Transactions that fail during execution land (fee charged) and are recorded with their
   * error. Returns the signature; throws RpcError like a validator's RPC does.
   */
  submit(wire: Uint8Array, options: { skipPreflight?: boolean } = {}): string {
    const tx = parseTransaction(wire)
    if (!verifyTransactionSignatures(tx)) {
      throw new RpcError(SIGNATURE_VERIFICATION_FAILURE, 'Transaction signature verification failure')
    }
    const signature = toBase58(tx.signatures[0] as Uint8Array)
    if (this.bySignature.has(signature)) {
      if (options.skipPreflight) return signature
      throw preflightFailure('AlreadyProcessed')
    }
    if (!this.isLifetimeValid(tx.message)) throw preflightFailure('BlockhashNotFound')
    let loaded: LoadedAddresses
    try {
      loaded = this.resolveLookups(tx.message)
    } catch (error) {
      if (error instanceof TransactionFailure) throw preflightFailure(error.err)
      throw error
    }
    const kitTx = transactionDecoder.decode(wire)
    if (!options.skipPreflight) {
      const simulated = this.simulateDecoded(kitTx)
      if (simulated instanceof FailedTransactionMetadata) {
        const err = transactionErrorToJson(simulated.err())
        throw preflightFailure(err, simulated.meta())
      }
    }
    return this.execute(tx, kitTx, loaded, signature).signature
  }

  private execute(tx: ParsedTransaction, kitTx: Transaction, loaded: LoadedAddresses, signature: string) {
    const { message } = tx
    const accountKeys = [...message.staticKeys, ...loaded.writable, ...loaded.readonly]
    const programIndexes = new Set(message.instructions.map((ix) => ix.programIdIndex))
    const readAccounts = () => accountKeys.map((key, i) => (programIndexes.has(i) ? null : this.getAccount(key)))
    const preAccounts = readAccounts()
    const preBalances = accountKeys.map((key) => Number(this.getBalance(key)))
    const preTokenBalances = this.tokenBalances(preAccounts)

    const result = this.svm.sendTransaction(kitTx)
    let meta: TransactionMetadata
    let err: TransactionErrorJson | null = null
    if (result instanceof FailedTransactionMetadata) {
      err = transactionErrorToJson(result.err())
      // Only transactions that were committed (fee charged) are in LiteSVM's history; the rest never landed.
      if (this.svm.getTransaction(signature as Signature) === null) throw preflightFailure(err, result.meta())
      meta = result.meta()
    } else {
      meta = result
    }

    const postAccounts = readAccounts()
    const record: TransactionRecord = {
      signature,
      seq: this.transactions.length,
      slot: this.slot,
      blockTime: Math.floor(Date.now() / 1000),
      wire: tx.bytes,
      version: message.version,
      accountKeys,
      loadedAddresses: loaded,
      err,
      fee: Number(computeFee(message)),
      preBalances,
      postBalances: accountKeys.map((key) => Number(this.getBalance(key))),
      preTokenBalances,
      postTokenBalances: this.tokenBalances(postAccounts),
      logMessages: meta.logs(),
      innerInstructions: innerInstructionsOf(meta),
      computeUnitsConsumed: Number(meta.computeUnitsConsumed()),
      returnData: returnDataOf(meta),
    }
    this.store(record)
    this.dirty = true
    this.priorityFees = this.priorityFees.filter((entry) => entry.slot > this.slot - PRIORITY_FEE_SLOTS)
    this.priorityFees.push({
      slot: this.slot,
      microLamports: Number(computeUnitPrice(message)),
      writable: new Set(accountKeys.filter((_key, i) => isWritable(message, loaded, i))),
    })

    const changed = accountKeys.filter((_key, i) => {
      const before = preAccounts[i]
      const after = postAccounts[i]
      return isWritable(message, loaded, i) && before && after && !sameAccount(before, after)
    })
    this.onTransaction.emit(record)
    if (changed.length > 0) this.onAccountsChanged.emit({ slot: this.slot, addresses: changed })
    return record
  }

  /**
   * simulateTransaction: runs the transaction against the current state without committing it.
   * `sigVerify` checks signatures first; `replaceRecentBlockhash` swaps in the latest blockhash.
   */
  simulate(
    wire: Uint8Array,
    options: { sigVerify?: boolean; replaceRecentBlockhash?: boolean } = {},
  ): SimulationResult {
    let tx = parseTransaction(wire)
    let replacementBlockhash: SimulationResult['replacementBlockhash'] = null
    if (options.sigVerify && !verifyTransactionSignatures(tx)) {
      throw new RpcError(SIGNATURE_VERIFICATION_FAILURE, 'Transaction signature verification failure')
    }
    if (options.replaceRecentBlockhash) {
      const latest = this.latestBlockhash()
      const bytes = new Uint8Array(wire)
      bytes.set(fromBase58(latest.blockhash), tx.messageOffset + tx.message.blockhashOffset)
      tx = parseTransaction(bytes)
      replacementBlockhash = latest
    }
    const base: SimulationResult = {
      err: null,
      logs: [],
      unitsConsumed: 0,
      returnData: null,
      innerInstructions: [],
      accountKeys: tx.message.staticKeys,
      postAccounts: new Map(),
      replacementBlockhash,
      fee: Number(computeFee(tx.message)),
    }
    if (!this.isLifetimeValid(tx.message)) return { ...base, err: 'BlockhashNotFound' }
    const signature = toBase58(tx.signatures[0] as Uint8Array)
    if (this.bySignature.has(signature) && options.sigVerify) return { ...base, err: 'AlreadyProcessed' }
    let loaded: LoadedAddresses
    try {
      loaded = this.resolveLookups(tx.message)
    } catch (error) {
      if (error instanceof TransactionFailure) return { ...base, err: error.err }
      throw error
    }
    const accountKeys = [...tx.message.staticKeys, ...loaded.writable, ...loaded.readonly]
    const result = this.simulateDecoded(transactionDecoder.decode(tx.bytes))
    if (result instanceof FailedTransactionMetadata) {
      const meta = result.meta()
      return {
        ...base,
        accountKeys,
        err: transactionErrorToJson(result.err()),
        logs: meta.logs(),
        unitsConsumed: Number(meta.computeUnitsConsumed()),
        returnData: returnDataOf(meta),
        innerInstructions: innerInstructionsOf(meta),
      }
    }
    const meta = result.meta()
    return {
      ...base,
      accountKeys,
      logs: meta.logs(),
      unitsConsumed: Number(meta.computeUnitsConsumed()),
      returnData: returnDataOf(meta),
      innerInstructions: innerInstructionsOf(meta),
      postAccounts: new Map(result.postAccounts().map((account) => [account.address, account])),
    }
  }

  /**
   * getRecentPrioritizationFees, as Agave answers it: for each recent slot with transactions, the lowest compute-unit
   * price (micro-lamports) a transaction paid in it; with `accounts`, per slot the highest over those accounts of the
   * lowest price among the transactions that wrote that account (0 when none did).
   */
  recentPrioritizationFees(accounts: string[] = []): { slot: number; prioritizationFee: number }[] {
    const slots = [...new Set(this.priorityFees.map((entry) => entry.slot))].filter(
      (slot) => slot > this.slot - PRIORITY_FEE_SLOTS,
    )
    const lowest = (entries: typeof this.priorityFees) =>
      entries.length === 0 ? 0 : Math.min(...entries.map((entry) => entry.microLamports))
    return slots.map((slot) => {
      const inSlot = this.priorityFees.filter((entry) => entry.slot === slot)
      const fee =
        accounts.length === 0
          ? lowest(inSlot)
          : Math.max(0, ...accounts.map((account) => lowest(inSlot.filter((entry) => entry.writable.has(account)))))
      return { slot, prioritizationFee: fee }
    })
  }

  /** Fee of a message (getFeeForMessage), or null when its blockhash is not valid. */
  feeForMessage(message: ParsedMessage): number | null {
    return this.isLifetimeValid(message) ? Number(computeFee(message)) : null
  }

  private simulateDecoded(kitTx: Transaction) {
    // Signatures were verified (or deliberately not) by the caller; LiteSVM would insist on fully signed input.
    this.svm.withSigverify(false)
    try {
      return this.svm.simulateTransaction(kitTx)
    } finally {
      this.svm.withSigverify(true)
    }
  }

  /** A recent blockhash that has not expired, or a durable nonce that matches its nonce account. */
  private isLifetimeValid(message: ParsedMessage): boolean {
    if (this.isBlockhashValid(message.recentBlockhash)) return true
    const first = message.instructions[0]
    if (!first || message.staticKeys[first.programIdIndex] !== SYSTEM_PROGRAM_ID) return false
    const isAdvanceNonce = first.data.length >= 4 && Buffer.from(first.data).readUInt32LE(0) === 4
    const nonceIndex = first.accounts[0]
    if (!isAdvanceNonce || nonceIndex === undefined) return false
    const nonceKey = message.staticKeys[nonceIndex]
    if (!nonceKey) return false
    const nonce = this.getAccount(nonceKey)
    if (!nonce.exists || nonce.programAddress !== SYSTEM_PROGRAM_ID || nonce.data.length < 72) return false
    return toBase58(nonce.data.subarray(40, 72)) === message.recentBlockhash
  }

  /** Resolves v0 address table lookups into loaded addresses. */
  private resolveLookups(message: ParsedMessage): LoadedAddresses {
    const loaded: LoadedAddresses = { writable: [], readonly: [] }
    for (const lookup of message.addressTableLookups) {
      const table = this.getAccount(lookup.accountKey)
      if (!table.exists) throw new TransactionFailure('AddressLookupTableNotFound')
      if (table.programAddress !== ADDRESS_LOOKUP_TABLE_PROGRAM_ID) {
        throw new TransactionFailure('InvalidAddressLookupTableOwner')
      }
      const data = table.data
      if (data.length < 56 || (data.length - 56) % 32 !== 0)
        throw new TransactionFailure('InvalidAddressLookupTableData')
      const count = (data.length - 56) / 32
      const at = (index: number) => {
        if (index >= count) throw new TransactionFailure('InvalidAddressLookupTableIndex')
        return toBase58(data.subarray(56 + index * 32, 88 + index * 32))
      }
      loaded.writable.push(...lookup.writableIndexes.map(at))
      loaded.readonly.push(...lookup.readonlyIndexes.map(at))
    }
    return loaded
  }

  private tokenBalances(accounts: (MaybeEncodedAccount | null)[]): TokenBalance[] {
    const decimalsByMint = new Map<string, number | null>()
    const balances: TokenBalance[] = []
    accounts.forEach((account, accountIndex) => {
      if (!account?.exists || !TOKEN_PROGRAMS.has(account.programAddress)) return
      const token = decodeTokenAccount(account.programAddress, account.data)
      if (!token) return
      if (!decimalsByMint.has(token.mint)) decimalsByMint.set(token.mint, this.mintDecimals(token.mint))
      const decimals = decimalsByMint.get(token.mint)
      if (decimals === null || decimals === undefined) return
      balances.push({
        accountIndex,
        mint: token.mint,
        owner: token.owner,
        programId: account.programAddress,
        uiTokenAmount: uiTokenAmount(token.amount, decimals),
      })
    })
    return balances
  }

  mintDecimals(mint: string): number | null {
    const account = this.getAccount(mint)
    if (!account.exists) return null
    return decodeMint(account.programAddress, account.data)?.decimals ?? null
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Transaction store
  // ---------------------------------------------------------------------------------------------------------------

  private store(record: TransactionRecord): void {
    this.transactions.push(record)
    this.bySignature.set(record.signature, record)
    for (const key of new Set(record.accountKeys)) {
      let list = this.byAddress.get(key)
      if (!list) {
        list = []
        this.byAddress.set(key, list)
      }
      list.push(record)
    }
  }

  getTransaction(signature: string): TransactionRecord | undefined {
    return this.bySignature.get(signature)
  }

  /** Status of a signature; without `searchHistory` only the recent status cache is searched, as on a validator. */
  getSignatureStatus(signature: string, searchHistory: boolean): TransactionRecord | undefined {
    const record = this.bySignature.get(signature)
    if (!record) return undefined
    if (!searchHistory && record.slot < this.slot - STATUS_CACHE_SLOTS) return undefined
    return record
  }

  /** Transactions that mention `address`, newest first. */
  signaturesForAddress(
    address: string,
    options: { limit: number; before?: string; until?: string },
  ): TransactionRecord[] {
    const list = this.byAddress.get(address) ?? []
    const beforeSeq =
      options.before === undefined ? Number.POSITIVE_INFINITY : this.bySignature.get(options.before)?.seq
    const untilSeq = options.until === undefined ? -1 : (this.bySignature.get(options.until)?.seq ?? -1)
    if (beforeSeq === undefined) return []
    const out: TransactionRecord[] = []
    for (let i = list.length - 1; i >= 0 && out.length < options.limit; i--) {
      const record = list[i] as TransactionRecord
      if (record.seq >= beforeSeq) continue
      if (record.seq <= untilSeq) break
      out.push(record)
    }
    return out
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Persistence
  // ---------------------------------------------------------------------------------------------------------------

  /** Writes the full state atomically (temp file + rename) when a stateDir is configured. */
  async save(): Promise<void> {
    const dir = this.options.stateDir
    if (!dir) return
    while (this.saving) await this.saving
    const text = JSON.stringify(this.serialize())
    this.dirty = false
    this.saving = writeAtomic(join(dir, STATE_FILE), text).finally(() => {
      this.saving = undefined
    })
    await this.saving
  }

  private serialize(): PersistedState {
    return {
      format: STATE_FORMAT,
      savedAt: Date.now(),
      slotMs: this.options.slotMs,
      slot: this.slot,
      blockHeight: this.blockHeight,
      genesisHash: this.genesisHash,
      blockhashes: [...this.blockhashes].map(([hash, info]) => [
        hash,
        info.slot,
        info.blockHeight,
        info.lastValidBlockHeight,
      ]),
      slotHashes: this.slotHashes.map((entry) => [Number(entry.slot), entry.hash]),
      extras: this.extras,
      transactions: this.transactions.map((record) => ({ ...record, wire: toBase64(record.wire) })),
      svm: toBase64(this.svm.toBytes()),
    }
  }

  private restore(saved: PersistedState): void {
    // The chain kept producing slots until it stopped; continue after the last slot it can have reached.
    const elapsedSlots = Math.max(1, Math.ceil((Date.now() - saved.savedAt) / Math.max(1, saved.slotMs)))
    this.slot = saved.slot + elapsedSlots
    this.blockHeight = saved.blockHeight + elapsedSlots
    this.genesisHash = saved.genesisHash
    this.extras = saved.extras ?? {}
    for (const [hash, slot, blockHeight, lastValidBlockHeight] of saved.blockhashes) {
      this.blockhashes.set(hash, { slot, blockHeight, lastValidBlockHeight })
    }
    this.slotHashes = (saved.slotHashes ?? []).map(([slot, hash]) => ({ slot: BigInt(slot), hash }))
    for (const tx of saved.transactions) this.store({ ...tx, wire: fromBase64(tx.wire) })
  }
}

async function readState(dir: string): Promise<PersistedState | undefined> {
  await mkdir(dir, { recursive: true })
  let text: string
  try {
    text = await readFile(join(dir, STATE_FILE), 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw error
  }
  const state = JSON.parse(text) as PersistedState
  if (state.format !== STATE_FORMAT) throw new Error(`unsupported localnet state format ${state.format} in ${dir}`)
  return state
}

async function writeAtomic(path: string, text: string): Promise<void> {
  const temp = `${path}.${process.pid}.tmp`
  const handle = await open(temp, 'w')
  try {
    await handle.writeFile(text)
    await handle.sync()
  } finally {
    await handle.close()
  }
  await rename(temp, path)
}

function preflightFailure(err: TransactionErrorJson, meta?: TransactionMetadata): RpcError {
  return new RpcError(PREFLIGHT_FAILURE, `Transaction simulation failed: ${describeTransactionError(err)}`, {
    accounts: null,
    err,
    innerInstructions: null,
    loadedAccountsDataSize: 0,
    logs: meta ? meta.logs() : [],
    replacementBlockhash: null,
    returnData: meta ? returnDataOf(meta) : null,
    unitsConsumed: meta ? Number(meta.computeUnitsConsumed()) : 0,
  })
}

function innerInstructionsOf(meta: TransactionMetadata): InnerInstructions[] {
  const out: InnerInstructions[] = []
  meta.innerInstructions().forEach((list, index) => {
    if (list.length === 0) return
    out.push({
      index,
      instructions: list.map((inner) => {
        const ix = inner.instruction()
        return {
          programIdIndex: ix.programIdIndex(),
          accounts: Array.from(ix.accounts()),
          data: toBase58(ix.data()),
          stackHeight: inner.stackHeight(),
        }
      }),
    })
  })
  return out
}

function returnDataOf(meta: TransactionMetadata): ReturnData | null {
  const returnData = meta.returnData()
  const data = returnData.data()
  if (data.length === 0) return null
  return { programId: toBase58(returnData.programId()), data: [toBase64(data), 'base64'] }
}

function isWritable(message: ParsedMessage, loaded: LoadedAddresses, index: number): boolean {
  const staticCount = message.staticKeys.length
  if (index < staticCount) return isStaticWritable(message, index)
  return index < staticCount + loaded.writable.length
}

function sameAccount(a: MaybeEncodedAccount, b: MaybeEncodedAccount): boolean {
  if (!a.exists || !b.exists) return a.exists === b.exists
  return (
    a.lamports === b.lamports &&
    a.programAddress === b.programAddress &&
    a.executable === b.executable &&
    Buffer.compare(Buffer.from(a.data), Buffer.from(b.data)) === 0
  )
}

/** The compute-unit price (micro-lamports) a message sets with ComputeBudget SetComputeUnitPrice, or 0. */
function computeUnitPrice(message: ParsedMessage): bigint {
  let price = 0n
  for (const ix of message.instructions) {
    const data = Buffer.from(ix.data)
    if (message.staticKeys[ix.programIdIndex] === COMPUTE_BUDGET_PROGRAM_ID && data[0] === 3 && data.length >= 9)
      price = data.readBigUInt64LE(1)
  }
  return price
}

/**
 * Fee of a message as the runtime charges it: 5000 lamports per signature (including precompile signatures) plus the
 * prioritization fee (compute unit price × compute unit limit, rounded up to whole lamports). Without an explicit
 * limit, builtin instructions reserve 3000 units and others 200k, as in current Agave.
 */
export function computeFee(message: ParsedMessage): bigint {
  let signatures = BigInt(message.header.numRequiredSignatures)
  let unitLimit: bigint | undefined
  let microLamportsPerUnit = 0n
  let defaultLimit = 0n
  for (const ix of message.instructions) {
    const program = message.staticKeys[ix.programIdIndex]
    const data = Buffer.from(ix.data)
    if (program === COMPUTE_BUDGET_PROGRAM_ID) {
      if (data[0] === 2 && data.length >= 5) unitLimit = BigInt(data.readUInt32LE(1))
      if (data[0] === 3 && data.length >= 9) microLamportsPerUnit = data.readBigUInt64LE(1)
    }
    if (program === ED25519_PROGRAM_ID || program === SECP256K1_PROGRAM_ID || program === SECP256R1_PROGRAM_ID) {
      signatures += BigInt(data[0] ?? 0)
    }
    defaultLimit += program !== undefined && BUILTIN_PROGRAMS.has(program) ? 3_000n : 200_000n
  }
  const limit = unitLimit ?? defaultLimit
  const cappedLimit = limit > 1_400_000n ? 1_400_000n : limit
  const priority = (microLamportsPerUnit * cappedLimit + 999_999n) / 1_000_000n
  return signatures * LAMPORTS_PER_SIGNATURE + priority
}
