import { PhantomWalletAdapter } from '@solana/wallet-adapter-phantom'
import { ConnectionProvider, useConnection, useWallet, WalletProvider } from '@solana/wallet-adapter-react'
import type { ClientConfig } from '@solpledge/contract/client'
import { useEffect, useMemo } from 'react'
import { WalletConnect, WalletLogin } from '@/features/auth/components/wallet-login.tsx'
import { useResumePayments } from '@/lib/payment/use-resume-payments.ts'
import { reportWalletError } from '@/lib/wallet/wallet-error.ts'
import { publishWallet } from '@/lib/wallet/wallet-state.ts'

export interface WalletLayerProps {
  config: ClientConfig
  inviteCode: string
  onReset: () => void
  /** False on the operator console: it signs in operators itself, so no user login or bind dialog runs there. */
  userLogin: boolean
}

/**
 * The chain connection, the Phantom wallet, the wallet picker and the user login: a chunk of its own that the shell
 * (app.tsx) loads after the first paint, or when a screen opens the wallet picker. It renders beside the screens and
 * hands them the wallet's state through lib/wallet/wallet-state.ts.
 */
export function WalletLayer({ config, inviteCode, onReset, userLogin }: WalletLayerProps) {
  const wallets = useMemo(() => [new PhantomWalletAdapter()], [])
  const connection = useMemo(() => ({ commitment: 'confirmed' as const, wsEndpoint: config.wsUrl }), [config.wsUrl])
  return (
    <ConnectionProvider endpoint={config.rpcUrl} config={connection}>
      <WalletProvider wallets={wallets} autoConnect onError={reportWalletError}>
        <PublishWallet />
        <WalletConnect />
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
