import { Keypair } from '@solana/web3.js'
import { decodeBase58, encodeBase58 } from './base58.ts'

/** localStorage key holding the demo wallet's keypairs. */
export const DEMO_WALLET_STORAGE_KEY = 'solpledge.demoWallet'
/** localStorage key remembering that this browser connected before (what `connect({ onlyIfTrusted: true })` needs). */
export const DEMO_WALLET_TRUSTED_KEY = 'solpledge.demoWallet.trusted'

/** The subset of the Web Storage API the wallet uses; `window.localStorage` satisfies it. */
export interface StorageLike {
  getItem(key: string): string | null
  setItem(key: string, value: string): void
  removeItem(key: string): void
}

/** JSON stored under {@link DEMO_WALLET_STORAGE_KEY}: base58 64-byte secret keys and the active index. */
export interface DemoWalletStorageValue {
  accounts: string[]
  active: number
}

/** A Map-backed {@link StorageLike}, for node tests and other places without `localStorage`. */
export class MemoryStorage implements StorageLike {
  readonly #items = new Map<string, string>()

  get length(): number {
    return this.#items.size
  }

  getItem(key: string): string | null {
    return this.#items.get(key) ?? null
  }

  setItem(key: string, value: string): void {
    this.#items.set(key, String(value))
  }

  removeItem(key: string): void {
    this.#items.delete(key)
  }

  clear(): void {
    this.#items.clear()
  }

  key(index: number): string | null {
    return [...this.#items.keys()][index] ?? null
  }
}

/** Checks a 64-byte secret key (seed followed by public key) and returns its keypair. */
export function keypairFromSecretKey(secretKey: Uint8Array | string): Keypair {
  const bytes = typeof secretKey === 'string' ? decodeBase58(secretKey.trim()) : secretKey
  if (bytes.length !== 64) throw new Error(`A secret key must be 64 bytes, got ${bytes.length}`)
  // Throws when the last 32 bytes are not the public key of the first 32.
  return Keypair.fromSecretKey(Uint8Array.from(bytes))
}

/**
 * The value to put under {@link DEMO_WALLET_STORAGE_KEY} so the demo wallet starts with these keys, e.g. in an e2e test:
 * `page.addInitScript(([k, v]) => localStorage.setItem(k, v), ['solpledge.demoWallet', value])`.
 */
export function createDemoWalletStorageValue(secretKeys: Uint8Array[], active = 0): string {
  if (secretKeys.length === 0) throw new Error('At least one secret key is required')
  if (!Number.isInteger(active) || active < 0 || active >= secretKeys.length) {
    throw new RangeError(`Active index ${active} is out of range 0..${secretKeys.length - 1}`)
  }
  const value: DemoWalletStorageValue = {
    accounts: secretKeys.map((secretKey) => encodeBase58(keypairFromSecretKey(secretKey).secretKey)),
    active,
  }
  return JSON.stringify(value)
}

/**
 * Reads the stored keypairs, dropping entries that are not valid secret keys. Returns null when nothing usable is
 * stored, so the caller can generate a fresh key.
 */
export function readDemoWalletStorage(storage: StorageLike): { keypairs: Keypair[]; active: number } | null {
  const raw = storage.getItem(DEMO_WALLET_STORAGE_KEY)
  if (raw === null) return null
  let parsed: unknown
  try {
    parsed = JSON.parse(raw)
  } catch {
    console.warn(`[demo-wallet] ignoring unparsable ${DEMO_WALLET_STORAGE_KEY}`)
    return null
  }
  const value = (parsed ?? {}) as Partial<Record<keyof DemoWalletStorageValue, unknown>>
  const accounts = Array.isArray(value.accounts) ? value.accounts : []
  const keypairs: Keypair[] = []
  for (const entry of accounts) {
    try {
      if (typeof entry !== 'string') throw new Error('not a string')
      keypairs.push(keypairFromSecretKey(entry))
    } catch (error) {
      console.warn(`[demo-wallet] ignoring an invalid account in ${DEMO_WALLET_STORAGE_KEY}:`, error)
    }
  }
  if (keypairs.length === 0) return null
  const active =
    typeof value.active === 'number' && Number.isInteger(value.active) && value.active >= 0
      ? Math.min(value.active, keypairs.length - 1)
      : 0
  return { keypairs, active }
}

export function writeDemoWalletStorage(storage: StorageLike, keypairs: readonly Keypair[], active: number): void {
  const value: DemoWalletStorageValue = { accounts: keypairs.map((kp) => encodeBase58(kp.secretKey)), active }
  storage.setItem(DEMO_WALLET_STORAGE_KEY, JSON.stringify(value))
}
