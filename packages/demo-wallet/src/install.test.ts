import { ed25519 } from '@noble/curves/ed25519'
import { WalletReadyState } from '@solana/wallet-adapter-base'
import { PhantomWalletAdapter } from '@solana/wallet-adapter-phantom'
import { type Connection, Keypair, type PublicKey, SystemProgram, Transaction } from '@solana/web3.js'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { installDemoWallet } from './install.ts'
import { createDemoWalletStorageValue, DEMO_WALLET_STORAGE_KEY, MemoryStorage } from './storage.ts'
import { DemoWallet, type DemoWalletConnection } from './wallet.ts'

const rpcUrl = 'http://127.0.0.1:8899'

interface FakeWindow {
  localStorage: MemoryStorage
  phantom?: { solana?: unknown }
  solana?: unknown
  isPhantomInstalled?: boolean
}

function fakeWindow(keys: Keypair[] = []): FakeWindow {
  const localStorage = new MemoryStorage()
  if (keys.length > 0) {
    localStorage.setItem(DEMO_WALLET_STORAGE_KEY, createDemoWalletStorageValue(keys.map((k) => k.secretKey)))
  }
  return { localStorage }
}
const asWindow = (win: FakeWindow) => win as unknown as Window & typeof globalThis

function legacyTx(feePayer: PublicKey) {
  return new Transaction({ feePayer, recentBlockhash: Keypair.generate().publicKey.toBase58() }).add(
    SystemProgram.transfer({ fromPubkey: feePayer, toPubkey: Keypair.generate().publicKey, lamports: 5 }),
  )
}

afterEach(() => {
  vi.unstubAllGlobals()
})

describe('installDemoWallet', () => {
  it('injects the wallet as window.phantom.solana and window.solana, once', () => {
    const key = Keypair.generate()
    const win = fakeWindow([key])
    const wallet = installDemoWallet({ rpcUrl, window: asWindow(win), widget: false })
    expect(wallet).toBeInstanceOf(DemoWallet)
    expect(win.phantom?.solana).toBe(wallet)
    expect(win.solana).toBe(wallet)
    expect(win.isPhantomInstalled).toBe(true)
    // Storage defaults to the window's localStorage.
    expect(wallet?.activePublicKey.equals(key.publicKey)).toBe(true)
    expect(installDemoWallet({ rpcUrl, window: asWindow(win), widget: false })).toBe(wallet)
  })

  it('leaves a real Phantom alone and returns null', () => {
    const real = { isPhantom: true, connect: async () => ({}) }
    const win = { ...fakeWindow(), phantom: { solana: real }, solana: real }
    expect(installDemoWallet({ rpcUrl, window: asWindow(win), widget: false })).toBeNull()
    expect(win.phantom.solana).toBe(real)
    expect(win.solana).toBe(real)
    expect(win.localStorage.getItem(DEMO_WALLET_STORAGE_KEY)).toBeNull()

    const legacyOnly = { ...fakeWindow(), solana: real }
    expect(installDemoWallet({ rpcUrl, window: asWindow(legacyOnly), widget: false })).toBeNull()
    expect(legacyOnly).not.toHaveProperty('phantom')
  })

  it('does not take over a non-Phantom window.solana', () => {
    const other = { isOtherWallet: true }
    const win: FakeWindow = { ...fakeWindow(), solana: other }
    const wallet = installDemoWallet({ rpcUrl, window: asWindow(win), widget: false })
    expect(win.phantom?.solana).toBe(wallet)
    expect(win.solana).toBe(other)
  })

  it('refuses mainnet RPC URLs', () => {
    const win = fakeWindow()
    expect(() =>
      installDemoWallet({ rpcUrl: 'https://api.mainnet-beta.solana.com', window: asWindow(win), widget: false }),
    ).toThrow(/local chain/)
    expect(win.phantom).toBeUndefined()
  })
})

describe('with PhantomWalletAdapter', () => {
  it('is detected as Installed and works through connect, sign, send, account change and disconnect', async () => {
    const keys = [Keypair.generate(), Keypair.generate()]
    const win = fakeWindow(keys)
    const sent: Uint8Array[] = []
    const connection: DemoWalletConnection = {
      sendRawTransaction: async (raw) => {
        sent.push(Uint8Array.from(raw))
        return 'sig'
      },
      getLatestBlockhash: async () => ({ blockhash: Keypair.generate().publicKey.toBase58(), lastValidBlockHeight: 1 }),
    }
    const wallet = installDemoWallet({ rpcUrl, window: asWindow(win), widget: false, connection }) as DemoWallet

    // What the adapter reads from the browser environment.
    vi.stubGlobal('window', win)
    vi.stubGlobal('document', { readyState: 'complete' })
    vi.stubGlobal('navigator', { userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/140.0' })
    const adapter = new PhantomWalletAdapter()
    expect(adapter.readyState).toBe(WalletReadyState.Installed)

    await adapter.connect()
    expect(adapter.connected).toBe(true)
    expect(adapter.publicKey?.equals(keys[0]?.publicKey as PublicKey)).toBe(true)

    const message = new TextEncoder().encode('hello')
    const signature = await adapter.signMessage(message)
    expect(ed25519.verify(signature, message, keys[0]?.publicKey.toBytes() as Uint8Array)).toBe(true)

    const signed = await adapter.signTransaction(legacyTx(keys[0]?.publicKey as PublicKey))
    expect(signed.verifySignatures()).toBe(true)

    const fakeConnection = { commitment: 'confirmed' } as Connection
    expect(await adapter.sendTransaction(legacyTx(keys[0]?.publicKey as PublicKey), fakeConnection)).toBe('sig')
    expect(Transaction.from(sent[0] as Uint8Array).verifySignatures()).toBe(true)

    const onConnect = vi.fn()
    adapter.on('connect', onConnect)
    wallet.switchAccount(1)
    expect(adapter.publicKey?.equals(keys[1]?.publicKey as PublicKey)).toBe(true)
    expect(onConnect.mock.calls[0]?.[0]).toEqual(keys[1]?.publicKey)

    const onDisconnect = vi.fn()
    adapter.on('disconnect', onDisconnect)
    adapter.on('error', () => {}) // the adapter reports a wallet-side disconnect as an error too
    await wallet.disconnect()
    expect(onDisconnect).toHaveBeenCalledTimes(1)
    expect(adapter.connected).toBe(false)

    await adapter.connect()
    expect(adapter.publicKey?.equals(keys[1]?.publicKey as PublicKey)).toBe(true)
    await adapter.disconnect()
    expect(wallet.isConnected).toBe(false)
    expect(wallet.listenerCount('disconnect')).toBe(0)
    expect(wallet.listenerCount('accountChanged')).toBe(0)
  })
})
