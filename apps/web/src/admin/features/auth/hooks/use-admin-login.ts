import { useMutation } from '@tanstack/react-query'
import i18next from 'i18next'
import { useEffect } from 'react'
import { clearAdminSession, saveAdminSession, useAdminSession } from '@/admin/lib/session.ts'
import { ApiError } from '@/lib/api-client.ts'
import { showMessage, toast } from '@/lib/toast.ts'
import { useWalletState } from '@/lib/wallet/wallet-state.ts'
import { signInOperator } from '../api/login.ts'

/**
 * The console login: the connected wallet signs the server's single-use sign-in message, as the user login does, and
 * the server answers with a console session when the address is on its operator allow-list. The session belongs to
 * the wallet that made it: another account connecting ends it.
 */
export function useAdminLogin() {
  const { publicKey, signMessage } = useWalletState()
  const address = publicKey?.toBase58() ?? null
  const session = useAdminSession()

  useEffect(() => {
    if (session && address && session.address !== address) clearAdminSession()
  }, [session, address])

  const signIn = useMutation({
    mutationFn: () => {
      if (!address || !signMessage) throw new Error('The wallet cannot sign messages')
      return signInOperator(address, signMessage)
    },
    onSuccess: ({ data, msg }) => {
      saveAdminSession(data)
      showMessage(msg, 'success')
    },
    onError: (error) => {
      console.error(error)
      toast.error(error instanceof ApiError ? error.message : i18next.t('msg:wallet.signFailed'))
    },
  })

  return { address, session: session?.address === address ? session : null, signIn }
}
