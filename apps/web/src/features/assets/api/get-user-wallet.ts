import { api } from '@solpledge/contract'
import { queryOptions, skipToken, useQuery } from '@tanstack/react-query'
import { call } from '../../../lib/api-client.ts'
import { useSession } from '../../../lib/session.ts'
import { assetsKeys, BALANCE_POLL_MS } from './keys.ts'

/** The signed-in user's assets with their balances (platform token, USDT, …). */
export const getUserWallet = async () => (await call(api.userWallet, {})).list

export const userWalletQueryOptions = (address: string | null) =>
  queryOptions({
    queryKey: assetsKeys.wallet(address ?? ''),
    queryFn: address ? getUserWallet : skipToken,
  })

/** The address of the signed-in user, or null: user data is only asked for with a session. */
export function useSignedInAddress() {
  const { loginStatus, userInfo } = useSession()
  return loginStatus && userInfo ? userInfo.address : null
}

/** `poll`: refresh every few seconds while the page is visible (the assets screen). */
export function useUserWallet({ poll = false } = {}) {
  const address = useSignedInAddress()
  return useQuery({ ...userWalletQueryOptions(address), refetchInterval: poll ? BALANCE_POLL_MS : false })
}
