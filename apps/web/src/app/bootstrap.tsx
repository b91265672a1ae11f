import type { ClientConfig } from '@solpledge/contract/client'
import { useEffect } from 'react'
import { markScreenShown } from '@/lib/after-first-screen.ts'

/** Rendered after a screen's content, inside its Suspense boundary: the first screen is on its way to the display. */
export function ScreenShown() {
  useEffect(markScreenShown, [])
  return null
}

/** Where the wallet adapter remembers the wallet last connected (WalletProvider's default localStorage key). */
const REMEMBERED_WALLET_KEY = 'walletName'

/**
 * Whether the wallet layer loads right after the first paint: a Phantom-type wallet is injected (it may connect by
 * itself: docs/product.md#start-up), the demo wallet will be (local chain), or the wallet adapter remembers a wallet (a
 * Wallet Standard one such as the Mobile Wallet Adapter) to reconnect and restore the session with. For anyone else it
 * loads when they open the wallet picker.
 */
export function walletAtStartup(config: ClientConfig) {
  const injected = window as { phantom?: { solana?: unknown }; solana?: unknown }
  return (
    config.demoWallet ||
    Boolean(injected.phantom?.solana ?? injected.solana) ||
    localStorage.getItem(REMEMBERED_WALLET_KEY) !== null
  )
}

let walletLayer: Promise<typeof import('./wallet-layer.tsx').WalletLayer> | undefined

/**
 * The wallet layer chunk (wallet adapter, chain library), once per page; on the local chain with the demo wallet,
 * installed before any wallet code runs.
 */
export function loadWalletLayer(config: ClientConfig) {
  walletLayer ??= (async () => {
    const [demo, layer] = await Promise.all([
      config.demoWallet ? import('@solpledge/demo-wallet') : null,
      import('./wallet-layer.tsx'),
    ])
    demo?.installDemoWallet({ rpcUrl: config.rpcUrl })
    return layer.WalletLayer
  })()
  return walletLayer
}
