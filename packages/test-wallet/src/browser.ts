// The page side (bundled into a script by script.ts): registers test wallets as a wallet extension's content script
// does, through the Wallet Standard's registerWallet, so the app finds them the way it finds a real Phantom.
import { registerWallet } from '@wallet-standard/wallet'
import { TestWallet, type TestWalletOptions } from './wallet.ts'

declare global {
  interface Window {
    /** The registered test wallets by name: the journeys read their prompts and act as their user. */
    testWallets?: Record<string, TestWallet>
  }
}

export function registerTestWallet(options: TestWalletOptions) {
  const wallet = new TestWallet(options)
  window.testWallets = { ...window.testWallets, [wallet.name]: wallet }
  registerWallet(wallet)
  return wallet
}
