import { api } from '@solpledge/contract/client'
import { queryOptions, skipToken, useQuery } from '@tanstack/react-query'
import { call } from '@/lib/api-client.ts'
import { useLiveRefresh } from '@/lib/live/use-live.ts'
import { useSignedInAddress } from '@/lib/session.ts'
import { nodeKeys } from './keys.ts'

/** The signed-in user's nodes with the dividends each has received. */
export const getMyNodes = async () => (await call(api.myNodes, {})).list

export const myNodesQueryOptions = (address: string | null) =>
  queryOptions({ queryKey: nodeKeys.mine(address ?? ''), queryFn: address ? getMyNodes : skipToken })

export function useMyNodes() {
  const address = useSignedInAddress()
  // Output, expiry, a new position: each moves the user's money.
  useLiveRefresh('user', myNodesQueryOptions(address).queryKey, {
    match: (event) => event.kind === 'balance',
    enabled: address !== null,
  })
  return useQuery(myNodesQueryOptions(address))
}
