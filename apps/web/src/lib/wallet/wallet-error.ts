import {
  WalletAccountError,
  WalletConnectionError,
  type WalletError,
  WalletNotReadyError,
  WalletPublicKeyError,
  WalletTimeoutError,
  WalletWindowBlockedError,
  WalletWindowClosedError,
} from '@solana/wallet-adapter-base'
import i18next from 'i18next'
import { toast } from '../toast.ts'

const connectionErrors = [
  WalletConnectionError,
  WalletAccountError,
  WalletPublicKeyError,
  WalletTimeoutError,
  WalletWindowBlockedError,
  WalletWindowClosedError,
]

/**
 * WalletProvider's onError. Connecting problems become the wallet toasts of docs/product.md#wallet-toasts; other errors
 * (signing, sending, disconnecting) are only logged here because the code that asked for them reports them itself.
 */
export function reportWalletError(error: WalletError) {
  console.error(error)
  if (error instanceof WalletNotReadyError) toast.error(i18next.t('msg:wallet.phantomNotInstalled'))
  else if (connectionErrors.some((type) => error instanceof type)) toast.error(i18next.t('msg:wallet.connectFailed'))
}
