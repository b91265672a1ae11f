import { ed25519 } from '@noble/curves/ed25519'
import {
  SolanaSignAndSendTransaction,
  type SolanaSignAndSendTransactionFeature,
  type SolanaSignAndSendTransactionInput,
  SolanaSignIn,
  type SolanaSignInFeature,
  type SolanaSignInInput,
  SolanaSignMessage,
  type SolanaSignMessageFeature,
  type SolanaSignMessageInput,
} from '@solana/wallet-standard-features'
import { createSignInMessageText } from '@solana/wallet-standard-util'
import { decodeBase58, encodeBase58 } from '@solpledge/demo-wallet/base58'
import type { IdentifierString, Wallet, WalletAccount, WalletIcon } from '@wallet-standard/base'
import {
  StandardConnect,
  type StandardConnectFeature,
  type StandardConnectInput,
  StandardDisconnect,
  type StandardDisconnectFeature,
  StandardEvents,
  type StandardEventsFeature,
  type StandardEventsListeners,
} from '@wallet-standard/features'
import { signTransaction } from './transaction.ts'

/** What the wallet would ask its user: each entry is one prompt (a silent reconnection of a trusted site is none). */
export type Prompt = 'connect' | 'signIn' | 'signMessage' | 'signAndSendTransaction'

export interface TestWalletOptions {
  /** The 32-byte Ed25519 seeds of the accounts, hex. */
  seeds: string[]
  /** The chain's JSON-RPC endpoint: signAndSendTransaction sends there. */
  rpcUrl: string
  /** The name wallets list it under (default 'Phantom': the app accepts Phantom only). */
  name?: string
  /** The chain its accounts are on (default solana:localnet). */
  chain?: IdentifierString
  /** Where it remembers the sites it trusts and the active account (default localStorage). */
  storage?: Storage
}

const FEATURES = [SolanaSignIn, SolanaSignMessage, SolanaSignAndSendTransaction] as const
const ICON: WalletIcon =
  'data:image/svg+xml;base64,PHN2ZyB4bWxucz0iaHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmciIHZpZXdCb3g9IjAgMCAzMiAzMiI+PHJlY3Qgd2lkdGg9IjMyIiBoZWlnaHQ9IjMyIiByeD0iOCIgZmlsbD0iIzZkNWRmYyIvPjwvc3ZnPg=='

class Account implements WalletAccount {
  readonly address: string
  readonly publicKey: Uint8Array
  readonly chains: IdentifierString[]
  readonly features = [...FEATURES]
  constructor(
    readonly seed: Uint8Array,
    chain: IdentifierString,
  ) {
    this.publicKey = ed25519.getPublicKey(seed)
    this.address = encodeBase58(this.publicKey)
    this.chains = [chain]
  }
  sign(message: Uint8Array) {
    return ed25519.sign(message, this.seed)
  }
}

const fromHex = (hex: string) => Uint8Array.from(hex.match(/../g) ?? [], (byte) => Number.parseInt(byte, 16))
const toBase64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes))
const rejected = () => Object.assign(new Error('User rejected the request.'), { code: 4001 })

/**
 * A Wallet Standard wallet for the e2e journeys: real Ed25519 keys, the features a Phantom offers (connect, disconnect,
 * events, solana:signIn, solana:signMessage, solana:signAndSendTransaction against the chain's RPC), and a record of
 * every prompt its user would see. It approves everything unless `rejectNext` is set. A site it connected to is
 * trusted: a silent connect (an app's auto-connect) then needs no prompt.
 */
export class TestWallet implements Wallet {
  readonly version = '1.0.0' as const
  readonly name: string
  readonly icon = ICON
  readonly chains: IdentifierString[]
  /** Every prompt, in order. */
  readonly prompts: Prompt[] = []
  /** The next prompt is refused (code 4001), as a user's "Cancel". */
  rejectNext = false

  readonly #accounts: Account[]
  readonly #rpcUrl: string
  readonly #storage: Storage
  #connected = false
  readonly #listeners = new Set<StandardEventsListeners['change']>()

  constructor({
    seeds,
    rpcUrl,
    name = 'Phantom',
    chain = 'solana:localnet',
    storage = localStorage,
  }: TestWalletOptions) {
    if (seeds.length === 0) throw new Error('The test wallet needs an account')
    this.name = name
    this.chains = [chain]
    this.#accounts = seeds.map((seed) => new Account(fromHex(seed), chain))
    this.#rpcUrl = rpcUrl
    this.#storage = storage
  }

  get #key() {
    return `solpledge.testWallet.${this.name}`
  }
  get #trusted() {
    return this.#storage.getItem(`${this.#key}.trusted`) === '1'
  }
  get #active(): Account {
    const index = Number(this.#storage.getItem(`${this.#key}.active`) ?? 0)
    return this.#accounts[index] ?? (this.#accounts[0] as Account)
  }

  get accounts(): readonly WalletAccount[] {
    return this.#connected ? [this.#active] : []
  }

  get features(): StandardConnectFeature &
    StandardDisconnectFeature &
    StandardEventsFeature &
    SolanaSignInFeature &
    SolanaSignMessageFeature &
    SolanaSignAndSendTransactionFeature {
    return {
      [StandardConnect]: { version: '1.0.0', connect: (input) => this.#connect(input) },
      [StandardDisconnect]: { version: '1.0.0', disconnect: async () => this.#setConnected(false) },
      [StandardEvents]: { version: '1.0.0', on: (_event, listener) => this.#on(listener) },
      [SolanaSignIn]: { version: '1.0.0', signIn: (...inputs) => Promise.all(inputs.map((i) => this.#signIn(i))) },
      [SolanaSignMessage]: {
        version: '1.1.0',
        signMessage: (...inputs) => Promise.all(inputs.map((i) => this.#signMessage(i))),
      },
      [SolanaSignAndSendTransaction]: {
        version: '1.0.0',
        supportedTransactionVersions: ['legacy', 0],
        signAndSendTransaction: (...inputs) => Promise.all(inputs.map((i) => this.#signAndSend(i))),
      },
    }
  }

  /** The user disconnects the site in the wallet. */
  disconnectFromWallet() {
    this.#setConnected(false)
  }

  /** The user makes another account active in the wallet: a connected site sees the new account. */
  switchAccount(index: number) {
    if (!this.#accounts[index]) throw new Error(`No account ${index}`)
    this.#storage.setItem(`${this.#key}.active`, String(index))
    if (this.#connected) this.#emit()
  }

  #prompt(kind: Prompt) {
    this.prompts.push(kind)
    if (!this.rejectNext) return
    this.rejectNext = false
    throw rejected()
  }

  #approve() {
    this.#storage.setItem(`${this.#key}.trusted`, '1')
    this.#setConnected(true)
  }

  async #connect(input?: StandardConnectInput) {
    if (!this.#connected) {
      // An auto-connect asks nothing: it connects a site trusted before, or nothing at all.
      if (input?.silent) {
        if (this.#trusted) this.#setConnected(true)
      } else {
        this.#prompt('connect')
        this.#approve()
      }
    }
    return { accounts: this.accounts }
  }

  async #signIn(input: SolanaSignInInput) {
    this.#prompt('signIn')
    const account = input.address ? this.#accounts.find((a) => a.address === input.address) : this.#active
    if (!account) throw new Error('The wallet has no such account')
    if (input.domain && input.domain !== location.host) throw new Error('The sign-in is for another site')
    this.#storage.setItem(`${this.#key}.active`, String(this.#accounts.indexOf(account)))
    const signedMessage = new TextEncoder().encode(
      createSignInMessageText({ ...input, domain: input.domain ?? location.host, address: account.address }),
    )
    this.#approve()
    return { account, signedMessage, signature: account.sign(signedMessage), signatureType: 'ed25519' as const }
  }

  #connectedAccount(account: WalletAccount): Account {
    const own = this.#connected ? this.#active : undefined
    if (!own || own.address !== account.address) throw Object.assign(new Error('Not connected'), { code: 4100 })
    return own
  }

  async #signMessage({ account, message }: SolanaSignMessageInput) {
    const own = this.#connectedAccount(account)
    this.#prompt('signMessage')
    return { signedMessage: message, signature: own.sign(message), signatureType: 'ed25519' as const }
  }

  async #signAndSend({ account, transaction, options }: SolanaSignAndSendTransactionInput) {
    const own = this.#connectedAccount(account)
    this.#prompt('signAndSendTransaction')
    const signed = signTransaction(transaction, own.publicKey, (message) => own.sign(message))
    const response = await fetch(this.#rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'sendTransaction',
        params: [
          toBase64(signed),
          {
            encoding: 'base64',
            skipPreflight: options?.skipPreflight ?? false,
            preflightCommitment: options?.preflightCommitment ?? 'confirmed',
          },
        ],
      }),
    })
    const body = (await response.json()) as { result?: string; error?: { message: string } }
    if (!body.result) throw new Error(`sendTransaction: ${body.error?.message ?? response.status}`)
    return { signature: decodeBase58(body.result) }
  }

  #setConnected(connected: boolean) {
    if (this.#connected === connected) return
    this.#connected = connected
    this.#emit()
  }

  #emit() {
    for (const listener of this.#listeners) listener({ accounts: this.accounts })
  }

  #on(listener: StandardEventsListeners['change']) {
    this.#listeners.add(listener)
    return () => {
      this.#listeners.delete(listener)
    }
  }
}
