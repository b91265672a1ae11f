import { Keypair } from '@solana/web3.js'
import { describe, expect, it, vi } from 'vitest'
import { decodeBase58, encodeBase58 } from './base58.ts'
import {
  createDemoWalletStorageValue,
  DEMO_WALLET_STORAGE_KEY,
  type DemoWalletStorageValue,
  MemoryStorage,
} from './storage.ts'
import { DemoWallet } from './wallet.ts'

const rpcUrl = 'http://127.0.0.1:8899'
const stored = (storage: MemoryStorage) =>
  JSON.parse(storage.getItem(DEMO_WALLET_STORAGE_KEY) ?? 'null') as DemoWalletStorageValue

describe('createDemoWalletStorageValue', () => {
  it('encodes 64-byte secret keys in base58 with the active index', () => {
    const a = Keypair.generate()
    const b = Keypair.generate()
    const value = JSON.parse(createDemoWalletStorageValue([a.secretKey, b.secretKey], 1)) as DemoWalletStorageValue
    expect(value).toEqual({ accounts: [encodeBase58(a.secretKey), encodeBase58(b.secretKey)], active: 1 })
    expect(decodeBase58(value.accounts[0] ?? '')).toEqual(a.secretKey)
  })

  it('rejects bad input', () => {
    const a = Keypair.generate()
    expect(() => createDemoWalletStorageValue([])).toThrow(/At least one/)
    expect(() => createDemoWalletStorageValue([a.secretKey], 1)).toThrow(RangeError)
    expect(() => createDemoWalletStorageValue([a.secretKey.slice(0, 32)])).toThrow(/64 bytes/)
    const mismatched = Uint8Array.from(a.secretKey)
    mismatched.set(Keypair.generate().publicKey.toBytes(), 32)
    expect(() => createDemoWalletStorageValue([mismatched])).toThrow()
  })
})

describe('DemoWallet storage', () => {
  it('generates and stores one keypair when storage is empty, and reloads it', () => {
    const storage = new MemoryStorage()
    const wallet = new DemoWallet({ rpcUrl, storage })
    expect(wallet.accounts()).toHaveLength(1)
    const value = stored(storage)
    expect(value.active).toBe(0)
    expect(value.accounts).toHaveLength(1)
    const secret = decodeBase58(value.accounts[0] ?? '')
    expect(Keypair.fromSecretKey(secret).publicKey.equals(wallet.activePublicKey)).toBe(true)
    expect(wallet.exportActiveSecretKey()).toBe(value.accounts[0])

    const again = new DemoWallet({ rpcUrl, storage })
    expect(again.activePublicKey.equals(wallet.activePublicKey)).toBe(true)
  })

  it('starts from a pre-seeded value', () => {
    const keys = [Keypair.generate(), Keypair.generate(), Keypair.generate()]
    const storage = new MemoryStorage()
    storage.setItem(
      DEMO_WALLET_STORAGE_KEY,
      createDemoWalletStorageValue(
        keys.map((k) => k.secretKey),
        2,
      ),
    )
    const wallet = new DemoWallet({ rpcUrl, storage })
    expect(wallet.accounts().map((k) => k.toBase58())).toEqual(keys.map((k) => k.publicKey.toBase58()))
    expect(wallet.activeIndex).toBe(2)
    expect(wallet.activePublicKey.equals(keys[2]?.publicKey as Keypair['publicKey'])).toBe(true)
  })

  it('persists addAccount and switchAccount', () => {
    const storage = new MemoryStorage()
    const wallet = new DemoWallet({ rpcUrl, storage })
    const imported = Keypair.generate()
    expect(wallet.addAccount(imported.secretKey)).toBe(1)
    expect(wallet.addAccount(encodeBase58(imported.secretKey))).toBe(1) // already there
    expect(wallet.addAccount()).toBe(2)
    wallet.switchAccount(1)
    expect(stored(storage).active).toBe(1)
    expect(stored(storage).accounts).toHaveLength(3)

    const reloaded = new DemoWallet({ rpcUrl, storage })
    expect(reloaded.accounts().map((k) => k.toBase58())).toEqual(wallet.accounts().map((k) => k.toBase58()))
    expect(reloaded.activePublicKey.equals(imported.publicKey)).toBe(true)
    expect(reloaded.exportActiveSecretKey()).toBe(encodeBase58(imported.secretKey))
  })

  it('drops invalid entries, clamps the active index and replaces unusable data', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const good = Keypair.generate()
    const storage = new MemoryStorage()
    storage.setItem(
      DEMO_WALLET_STORAGE_KEY,
      JSON.stringify({ accounts: ['not-base58-0', 42, encodeBase58(good.secretKey)], active: 7 }),
    )
    const wallet = new DemoWallet({ rpcUrl, storage })
    expect(wallet.accounts().map((k) => k.toBase58())).toEqual([good.publicKey.toBase58()])
    expect(wallet.activeIndex).toBe(0)
    expect(stored(storage)).toEqual({ accounts: [encodeBase58(good.secretKey)], active: 0 })

    storage.setItem(DEMO_WALLET_STORAGE_KEY, '{broken')
    const fresh = new DemoWallet({ rpcUrl, storage })
    expect(fresh.accounts()).toHaveLength(1)
    expect(fresh.activePublicKey.equals(good.publicKey)).toBe(false)
    expect(warn).toHaveBeenCalledTimes(3)
    warn.mockRestore()
  })
})
