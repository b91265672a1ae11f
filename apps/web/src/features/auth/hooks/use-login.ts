import { useWallet } from '@solana/wallet-adapter-react'
import { Code } from '@solpledge/contract/client'
import i18next from 'i18next'
import { useCallback, useEffect, useRef, useState } from 'react'
import { ApiError } from '@/lib/api-client.ts'
import { clearSession, markUnbound, saveLogin, setWalletAddress, useSession } from '@/lib/session.ts'
import { showMessage, toast } from '@/lib/toast.ts'
import { isRegistered, signIn } from '../api/login.ts'

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
  if (error.code === Code.NOT_BOUND) markUnbound()
  else clearSession()
}

/**
 * The login state machine (docs/product.md#login). When a wallet connects: is it registered? yes → sign in; no → the
 * bind dialog. When the account changes or the wallet disconnects: clear the session, go home (onReset), and sign in
 * again as the new account. Results that arrive for an account that is no longer connected are dropped.
 */
export function useLogin(onReset: () => void) {
  const { publicKey, signMessage } = useWallet()
  const { isBind } = useSession()
  const address = publicKey?.toBase58() ?? null
  /** The account the app currently works for. */
  const current = useRef<string | null>(null)
  const [pending, setPending] = useState(false)
  /** The account whose bind state is known (the check or a login attempt finished). */
  const [settled, setSettled] = useState<string | null>(null)

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

  const logIn = useCallback(
    async (account: string, inviteCode: string) => {
      if (!signMessage) throw new Error('The wallet cannot sign messages')
      const { data, msg } = await signIn(account, inviteCode, signMessage)
      if (current.current !== account) return
      saveLogin(data)
      showMessage(msg, 'success')
    },
    [signMessage],
  )

  useEffect(() => {
    if (current.current === address) return
    const previous = current.current
    current.current = address
    setWalletAddress(address)
    setPending(false)
    if (previous) {
      clearSession()
      onReset()
    }
    if (address)
      attempt(address, async () => {
        if (await isRegistered(address)) await logIn(address, '')
        else markUnbound()
      })
  }, [address, attempt, logIn, onReset])

  const bind = (inviteCode: string) => {
    if (address) attempt(address, () => logIn(address, inviteCode.trim()))
  }

  return { pending, needsBind: address !== null && settled === address && !pending && !isBind, bind }
}
