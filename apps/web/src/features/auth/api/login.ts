import type { WalletContextState } from '@solana/wallet-adapter-react'
import { api, Code, LOGIN_TYPE, type LoginData } from '@solpledge/contract/client'
import { ApiError, call, send } from '@/lib/api-client.ts'
import { toHex } from '@/lib/format.ts'

/** Whether the wallet is registered, i.e. bound to a referrer. */
export const isRegistered = async (address: string) => (await call(api.isReg, { address })).is_reg === 1

/** What a wallet offers to sign in with (the wallet adapter's functions, undefined when it lacks them). */
export interface WalletSigner {
  /** Sign-In-With-Solana: one prompt that connects the wallet too, naming the account it signs in with. */
  signIn?: WalletContextState['signIn']
  signMessage?: WalletContextState['signMessage']
}

/** The server's sign-in message signed by a wallet: what registerThird takes, and until when it can be sent. */
export interface SignedLogin {
  address: string
  message: string
  /** The signature, hex. */
  sign: string
  expiresAt: number
}

/**
 * Gets a single-use sign-in message from the server signed (docs/product.md#login, with a nonce): by the wallet's
 * signIn where it has one, else by signMessage of the text's UTF-8 bytes. Without `address` (a wallet not connected
 * yet) only signIn can: the server's message then leaves the address to the account the wallet signs in with.
 */
export async function signLogin(wallet: WalletSigner, address?: string): Promise<SignedLogin> {
  const nonce = await call(api.nonce, address ? { address } : {})
  const expiresAt = Date.parse(nonce.expires_at)
  if (wallet.signIn) {
    const output = await wallet.signIn(nonce.sign_in)
    if (address && output.account.address !== address) throw new Error('The wallet signed in with another account')
    const message = new TextDecoder().decode(output.signedMessage)
    return { address: output.account.address, message, sign: toHex(output.signature), expiresAt }
  }
  if (!address || !wallet.signMessage) throw new Error('The wallet cannot sign the sign-in message')
  const signature = await wallet.signMessage(new TextEncoder().encode(nonce.message))
  return { address, message: nonce.message, sign: toHex(signature), expiresAt }
}

/** Logs in with a signed message and the invite code. Resolves the envelope: the user info with the token, and msg. */
export const logIn = ({ address, sign, message }: SignedLogin, inviteCode: string) =>
  send(api.registerThird, { type: LOGIN_TYPE, address, sign, invite_code: inviteCode, message })

/**
 * Whether the server still accepts a session stored by an earlier page: false when it refuses it (-403), which
 * clears nothing else; any other failure (offline) is thrown.
 */
export async function isLive(session: LoginData) {
  try {
    await call(api.userIndex, {}, { session: { token: session.token, address: session.address } })
    return true
  } catch (error) {
    if (error instanceof ApiError && error.code === Code.SESSION_INVALID) return false
    throw error
  }
}

/**
 * Ends a session on the server (Disconnect, an account switch). Not awaited by anyone: the app is signed out at
 * once, and a failure (offline, already ended) is only logged — the session then ends by itself (idle time).
 */
export function endOnServer(session: { token: string; address: string }) {
  call(api.logout, {}, { session }).catch((error: unknown) => {
    if (!(error instanceof ApiError && error.code === Code.SESSION_INVALID)) console.error(error)
  })
}
