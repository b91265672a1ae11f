import { useWallet } from '@solana/wallet-adapter-react'
import { Code } from '@solpledge/contract/client'
import i18next from 'i18next'
import { useCallback, useEffect, useMemo, useRef, useState } from 'react'
import { ApiError } from '@/lib/api-client.ts'
import {
  clearSession,
  markUnbound,
  saveLogin,
  setSignedOut,
  setWalletAddress,
  storedCredentials,
  storedSession,
  useSession,
} from '@/lib/session.ts'
import { showMessage, toast } from '@/lib/toast.ts'
import { endOnServer, isLive, isRegistered, logIn, type SignedLogin, signLogin } from '../api/login.ts'
import { takeWalletChoice, useWalletChoice } from './wallet-choice.ts'

/** Login error (docs/product.md#login): server refusals show their msg, anything else 'Signature failed.'. */
function reportLoginError(error: unknown) {
  console.error(error)
  if (!(error instanceof ApiError)) {
    toast.error(i18next.t('msg:wallet.signFailed'))
    clearSession()
    return
  }
  toast.error(error.message)
  // Not bound: keep the session, the bind dialog shows. Any other refusal ends it.
  if (error.code !== Code.NOT_BOUND) clearSession()
}

/** Ends whatever session the storage holds, on the server too, and clears userinfo, root and token. */
function endStoredSession() {
  const stored = storedCredentials()
  if (stored) endOnServer(stored)
  clearSession()
}

/** A signed message the bind may still send: it is the account's and has a minute left. */
const stillValid = (signed: SignedLogin | null, account: string): signed is SignedLogin =>
  signed !== null && signed.address === account && signed.expiresAt - Date.now() > 60_000

/**
 * The login state machine (docs/product.md#login). When a wallet connects: a session stored for it that the server
 * still accepts is restored silently (no signature, no toast); otherwise is it registered? yes → sign in; no → the bind
 * dialog. A wallet chosen in the picker that has Sign-In-With-Solana is connected and signed in by one signIn, and a
 * new member's bind then sends that signature. When the account changes or the wallet disconnects: the session ends on
 * the server and here, the app goes home (onReset), and the new account signs in. Results that arrive for an account
 * that is no longer connected are dropped (lib/session.ts writes only for the connected account).
 */
export function useLogin(onReset: () => void) {
  const { publicKey, signMessage, signIn, wallet, select } = useWallet()
  const { isBind } = useSession()
  const address = publicKey?.toBase58() ?? null
  const choice = useWalletChoice()
  const signer = useMemo(() => ({ signIn, signMessage }), [signIn, signMessage])
  /** The account the app currently works for. */
  const current = useRef<string | null>(null)
  const [pending, setPending] = useState(false)
  /** The account whose bind state is known (the check or a login attempt finished). */
  const [settled, setSettled] = useState<string | null>(null)
  /** The picker's signIn is connecting the wallet: the account it names is signed in by it. */
  const signingIn = useRef(false)
  /** What the picker's signIn signed for an account that is not bound yet: the bind sends it. */
  const signedForBind = useRef<SignedLogin | null>(null)

  const attempt = useCallback(async (account: string, task: () => Promise<void>) => {
    setPending(true)
    try {
      await task()
    } catch (error) {
      if (current.current === account) reportLoginError(error)
    }
    if (current.current !== account) return
    setPending(false)
    setSettled(account)
  }, [])

  const finish = useCallback(async (signed: SignedLogin, inviteCode: string) => {
    const { data, msg } = await logIn(signed, inviteCode)
    if (saveLogin(data)) showMessage(msg, 'success')
  }, [])

  /** Signs in a connected account: bound → log in with `signed` or a new signature; not bound → the bind dialog. */
  const signInAccount = useCallback(
    async (account: string, signed?: SignedLogin) => {
      if (await isRegistered(account)) await finish(signed ?? (await signLogin(signer, account)), '')
      else {
        signedForBind.current = signed ?? null
        markUnbound(account)
      }
    },
    [finish, signer],
  )

  useEffect(() => {
    if (current.current === address) return
    const previous = current.current
    current.current = address
    setWalletAddress(address)
    setPending(false)
    signedForBind.current = null
    if (previous) {
      endStoredSession()
      onReset()
    }
    // Signed out sticks until a wallet connects again.
    if (address) setSignedOut(false)
    else if (previous) setSignedOut(true)
    if (!address || signingIn.current) return
    attempt(address, async () => {
      const stored = storedSession(address)
      // A live session of this account comes back as it was: no signature, no toast. Offline, it is kept too (its
      // next call says whether it still holds).
      if (stored && (await isLive(stored).catch(() => true))) {
        saveLogin(stored)
        return
      }
      endStoredSession()
      await signInAccount(address)
    })
  }, [address, attempt, onReset, signInAccount])

  // A wallet chosen in the picker with Sign-In-With-Solana: one prompt connects it and signs the server's message.
  useEffect(() => {
    const adapter = wallet?.adapter
    if (!adapter || !choice?.signIn || choice.name !== adapter.name || !signIn || adapter.connected) return
    takeWalletChoice()
    signingIn.current = true
    setPending(true)
    signLogin({ signIn })
      .then((signed) => {
        signingIn.current = false
        // The wallet is connected as the account it signed in with: the app works for it from now on.
        current.current = signed.address
        setWalletAddress(signed.address)
        setSignedOut(false)
        endStoredSession()
        return attempt(signed.address, () => signInAccount(signed.address, signed))
      })
      .catch((error: unknown) => {
        signingIn.current = false
        setPending(false)
        reportLoginError(error)
        // Nothing connected: the choice is not remembered.
        if (!adapter.connected) select(null)
      })
  }, [choice, wallet, signIn, select, attempt, signInAccount])

  const bind = (inviteCode: string) => {
    if (!address) return
    const signed = signedForBind.current
    signedForBind.current = null
    attempt(address, async () =>
      finish(stillValid(signed, address) ? signed : await signLogin(signer, address), inviteCode.trim()),
    )
  }

  return { pending, needsBind: address !== null && settled === address && !pending && !isBind, bind }
}
