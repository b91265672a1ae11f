import { PhantomWalletAdapter } from '@solana/wallet-adapter-phantom'
import { ConnectionProvider, WalletProvider } from '@solana/wallet-adapter-react'
import type { ClientConfig } from '@solpledge/contract'
import { QueryClientProvider } from '@tanstack/react-query'
import { type ReactNode, useMemo } from 'react'
import { WalletConnect, WalletLogin } from '../features/auth/components/wallet-login.tsx'
import { ClientConfigContext } from '../lib/client-config.ts'
import { reportWalletError } from '../lib/wallet/wallet-error.ts'
import { WalletModalProvider } from '../lib/wallet/wallet-modal.tsx'
import { queryClient } from './query-client.ts'

interface WalletLayerProps {
  config: ClientConfig
  inviteCode: string
  onReset: () => void
  /** False on the operator console: it signs in operators itself, so no user login or bind dialog runs there. */
  userLogin: boolean
  children: ReactNode
}

/**
 * The runtime config, the data cache, the chain connection, the Phantom wallet and the user login: loaded as its own
 * chunk after the config arrives.
 */
export function WalletLayer({ config, inviteCode, onReset, userLogin, children }: WalletLayerProps) {
  const wallets = useMemo(() => [new PhantomWalletAdapter()], [])
  const connection = useMemo(() => ({ commitment: 'confirmed' as const, wsEndpoint: config.wsUrl }), [config.wsUrl])
  return (
    <ClientConfigContext value={config}>
      <QueryClientProvider client={queryClient}>
        <ConnectionProvider endpoint={config.rpcUrl} config={connection}>
          <WalletProvider wallets={wallets} autoConnect onError={reportWalletError}>
            <WalletModalProvider>
              {children}
              <WalletConnect />
              {userLogin && <WalletLogin inviteCode={inviteCode} onReset={onReset} />}
            </WalletModalProvider>
          </WalletProvider>
        </ConnectionProvider>
      </QueryClientProvider>
    </ClientConfigContext>
  )
}
