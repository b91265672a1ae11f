import { WalletReadyState } from '@solana/wallet-adapter-base'
import { PhantomWalletName } from '@solana/wallet-adapter-phantom'
import { useWallet } from '@solana/wallet-adapter-react'
import { useEffect, useRef } from 'react'
import { isSignedOut } from '@/lib/session.ts'

/**
 * Start-up (docs/product.md#start-up): the wallet connects by itself. Only Phantom is accepted, so when it is installed
 * and nothing is selected yet it is selected once per page load, and the wallet layer reconnects it quietly (a
 * remembered wallet is reconnected the same way). After the user signed out (Disconnect, or the wallet disconnected the
 * site) nothing connects until they choose a wallet again, on this page or a later one.
 */
export function useConnectAtStartup() {
  const { wallet, wallets, select } = useWallet()
  const done = useRef(false)
  useEffect(() => {
    if (done.current) return
    if (wallet || isSignedOut()) {
      done.current = true
      return
    }
    const phantom = wallets.find((w) => w.adapter.name === PhantomWalletName)
    if (phantom?.readyState === WalletReadyState.Installed) {
      done.current = true
      select(PhantomWalletName)
    }
  }, [wallet, wallets, select])
}
