import type { StorageLike } from './storage.ts'
import { DemoWallet, type DemoWalletConnection } from './wallet.ts'
import { mountDemoWalletWidget } from './widget.ts'

export interface InstallDemoWalletOptions {
  /** RPC endpoint of the local chain; `signAndSendTransaction` submits here. Mainnet URLs are refused. */
  rpcUrl: string
  /** Defaults to the window's `localStorage`. */
  storage?: StorageLike
  /** Defaults to the global `window`. */
  window?: Window & typeof globalThis
  /** Mount the floating account badge (default true). */
  widget?: boolean
  /** Overrides the `Connection` built from `rpcUrl`. */
  connection?: DemoWalletConnection
}

interface InjectionTarget {
  phantom?: { solana?: unknown }
  solana?: unknown
  isPhantomInstalled?: boolean
}

function isDemoWallet(value: unknown): value is DemoWallet {
  return value instanceof DemoWallet || (typeof value === 'object' && value !== null && 'isDemoWallet' in value)
}

function isPhantomProvider(value: unknown): boolean {
  return typeof value === 'object' && value !== null && (value as { isPhantom?: unknown }).isPhantom === true
}

/**
 * Creates a {@link DemoWallet} and injects it as `window.phantom.solana` and `window.solana` (plus
 * `window.isPhantomInstalled = true`, which PhantomWalletAdapter requires to report `Installed`). Call it before the
 * wallet adapter is created. Returns the already injected demo wallet if called twice, and null (injecting nothing)
 * when a real Phantom is present.
 */
export function installDemoWallet(options: InstallDemoWalletOptions): DemoWallet | null {
  if (/mainnet/i.test(options.rpcUrl)) {
    throw new Error(`The demo wallet is for the local chain and tests only; refusing RPC URL ${options.rpcUrl}`)
  }
  const win = options.window ?? (globalThis as { window?: Window & typeof globalThis }).window
  if (!win) throw new Error('installDemoWallet needs a window')
  const target = win as unknown as InjectionTarget

  const existing = target.phantom?.solana ?? target.solana
  if (isDemoWallet(existing)) return existing
  if (isPhantomProvider(existing)) return null

  const wallet = new DemoWallet({
    rpcUrl: options.rpcUrl,
    storage: options.storage ?? win.localStorage,
    connection: options.connection,
  })
  if (target.phantom) target.phantom.solana = wallet
  else target.phantom = { solana: wallet }
  // Another (non-Phantom) wallet may own window.solana; the adapter reads window.phantom.solana first anyway.
  if (target.solana === undefined || target.solana === null) target.solana = wallet
  target.isPhantomInstalled = true

  if (options.widget !== false) {
    const doc = win.document
    if (doc.body) mountDemoWalletWidget(wallet, doc)
    else doc.addEventListener('DOMContentLoaded', () => mountDemoWalletWidget(wallet, doc), { once: true })
  }
  return wallet
}
