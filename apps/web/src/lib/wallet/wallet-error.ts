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

/** Quiet wallet work in progress (a reconnection nobody asked for): its errors are logged, never shown. */
let quiet = 0

/** Runs `task` (e.g. a quiet reconnection at start-up) without toasts for its wallet errors; resolves whether it did. */
export async function quietly(task: () => Promise<void>) {
  quiet++
  try {
    await task()
    return true
  } catch {
    return false
  } finally {
    quiet--
  }
}

/**
 * WalletProvider's onError. Connecting problems become the wallet toasts of docs/product.md#wallet-toasts; other errors
 * (signing, sending, disconnecting) are only logged here because the code that asked for them reports them itself.
 */
export function reportWalletError(error: WalletError) {
  console.error(error)
  if (quiet > 0) return
  if (error instanceof WalletNotReadyError) toast.error(i18next.t('msg:wallet.phantomNotInstalled'))
  else if (connectionErrors.some((type) => error instanceof type)) toast.error(i18next.t('msg:wallet.connectFailed'))
}
