import type { Adapter } from '@solana/wallet-adapter-base'
import { PhantomWalletAdapter } from '@solana/wallet-adapter-phantom'
import { ConnectionProvider, useConnection, useWallet, WalletProvider } from '@solana/wallet-adapter-react'
import {
  createDefaultAuthorizationCache,
  createDefaultChainSelector,
  createDefaultWalletNotFoundHandler,
  registerMwa,
} from '@solana-mobile/wallet-standard-mobile'
import type { ClientConfig } from '@solpledge/contract/client'
import { useEffect, useMemo } from 'react'
import { WalletConnect, WalletLogin } from '@/features/auth/components/wallet-login.tsx'
import { chosenWallet, takeWalletChoice } from '@/features/auth/hooks/wallet-choice.ts'
import { APP_NAME } from '@/lib/config.ts'
import { useResumePayments } from '@/lib/payment/use-resume-payments.ts'
import { isAndroidBrowser } from '@/lib/wallet/phantom.ts'
import { quietly, reportWalletError } from '@/lib/wallet/wallet-error.ts'
import { publishWallet } from '@/lib/wallet/wallet-state.ts'

export interface WalletLayerProps {
  config: ClientConfig
  inviteCode: string
  onReset: () => void
  /** False on the operator console: it signs in operators itself, so no user login or bind dialog runs there. */
  userLogin: boolean
}

/** The Wallet Standard chain of a cluster, as the Mobile Wallet Adapter names it. */
const chainOf = (cluster: string) => `solana:${cluster === 'mainnet-beta' ? 'mainnet' : cluster}` as const

let mwaRegistered = false

/**
 * On Android's browser (not a web view, where an injected wallet is used), the Mobile Wallet Adapter: a Wallet
 * Standard wallet that reaches the wallet app on the phone (Phantom) without leaving the browser. Registered before
 * the wallet adapter starts, which then lists it instead of making its own.
 */
function registerMobileWallet(config: ClientConfig) {
  if (mwaRegistered || !isAndroidBrowser()) return
  mwaRegistered = true
  registerMwa({
    appIdentity: { name: APP_NAME, uri: window.location.origin, icon: 'icons/icon-192.png' },
    authorizationCache: createDefaultAuthorizationCache(),
    chains: [chainOf(config.cluster)],
    chainSelector: createDefaultChainSelector(),
    onWalletNotFound: createDefaultWalletNotFoundHandler(),
  })
}

/**
 * The wallet adapter's auto-connect: a wallet the user chose connects as they asked (one with Sign-In-With-Solana is
 * left to the login's signIn: connecting and signing in one prompt); one selected at start-up — remembered, or the
 * installed Phantom — reconnects quietly (a trusted site's silent reconnection: no prompt, and no toast when it cannot).
 */
async function autoConnect(adapter: Adapter) {
  const choice = chosenWallet(adapter.name)
  if (choice) {
    if (choice.signIn) return false
    takeWalletChoice()
    return true
  }
  await quietly(() => adapter.autoConnect())
  return false
}

/**
 * The chain connection, the wallets (Phantom's injected provider, the Wallet Standard wallets the page has, the Mobile
 * Wallet Adapter on Android), the wallet picker and the user login: a chunk of its own that the shell (app.tsx) loads
 * after the first paint, or when a screen opens the wallet picker. It renders beside the screens and hands them the
 * wallet's state through lib/wallet/wallet-state.ts.
 */
export function WalletLayer({ config, inviteCode, onReset, userLogin }: WalletLayerProps) {
  const wallets = useMemo(() => {
    registerMobileWallet(config)
    return [new PhantomWalletAdapter()]
  }, [config])
  const connection = useMemo(() => ({ commitment: 'confirmed' as const, wsEndpoint: config.wsUrl }), [config.wsUrl])
  return (
    <ConnectionProvider endpoint={config.rpcUrl} config={connection}>
      <WalletProvider wallets={wallets} autoConnect={autoConnect} onError={reportWalletError}>
        <PublishWallet />
        <WalletConnect inviteCode={inviteCode} signIn={userLogin} />
        {userLogin && <WalletLogin inviteCode={inviteCode} onReset={onReset} />}
      </WalletProvider>
    </ConnectionProvider>
  )
}

/**
 * Publishes the wallet's state to the screens. On-chain payments left unreported by a reload or a closed tab are
 * reported once the user is signed in again, whatever the screen.
 */
function PublishWallet() {
  const { connected, connecting, publicKey, disconnect, sendTransaction, signMessage } = useWallet()
  const { connection } = useConnection()
  useEffect(() => {
    publishWallet({ connected, connecting, publicKey, disconnect, sendTransaction, signMessage }, connection)
  }, [connected, connecting, publicKey, disconnect, sendTransaction, signMessage, connection])
  useResumePayments()
  return null
}
