import { WalletReadyState } from '@solana/wallet-adapter-base'
import { PhantomWalletName } from '@solana/wallet-adapter-phantom'
import { useWallet } from '@solana/wallet-adapter-react'
import { useEffect, useRef } from 'react'

/**
 * Start-up (docs/product.md#start-up): the wallet connects by itself. Only Phantom is accepted, so when it is installed
 * and nothing is selected yet it is selected once per page load and the provider's autoConnect connects it. After the
 * user disconnects it stays disconnected until they connect again.
 */
export function useConnectAtStartup() {
  const { wallet, wallets, select } = useWallet()
  const done = useRef(false)
  useEffect(() => {
    if (done.current) return
    if (wallet) {
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
