import type { WalletContextState } from '@solana/wallet-adapter-react'
import type { Connection } from '@solana/web3.js'
import { createStore } from '../store.ts'

/** What screens use of the wallet: whether and as whom it is connected, and the wallet's own actions. */
export type WalletState = Pick<
  WalletContextState,
  'connected' | 'connecting' | 'publicKey' | 'disconnect' | 'sendTransaction' | 'signMessage'
>

/**
 * The wallet layer (app/wallet-layer.tsx) loads after the first paint, or when a screen asks for it, as a sibling of
 * the screens: it publishes the wallet adapter's state and the chain connection here, so screens paint at once and
 * are never remounted when it arrives. Until then nothing is connected.
 */
const notConnected: WalletState = {
  connected: false,
  connecting: false,
  publicKey: null,
  disconnect: async () => {},
  sendTransaction: () => Promise.reject(new Error('The wallet layer has not loaded')),
  signMessage: undefined,
}

const store = createStore<{ wallet: WalletState; connection: Connection | null }>({
  wallet: notConnected,
  connection: null,
})

export const publishWallet = (wallet: WalletState, connection: Connection) => store.set({ wallet, connection })
export const useWalletState = () => store.use().wallet
/** The chain connection, null until the wallet layer has loaded. */
export const useChainConnection = () => store.use().connection
