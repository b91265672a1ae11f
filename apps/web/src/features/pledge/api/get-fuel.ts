import { api } from '@solpledge/contract/client'
import { queryOptions, skipToken, useQuery } from '@tanstack/react-query'
import { call } from '@/lib/api-client.ts'
import { useLiveRefresh } from '@/lib/live/use-live.ts'
import { useSignedInAddress } from '@/lib/session.ts'
import { pledgeKeys } from './keys.ts'

/** The fuel bars: the user's small-market fuel against the tiers, and the platform's total fuel. */
export const getFuel = () => call(api.fuel, {})

export type Fuel = Awaited<ReturnType<typeof getFuel>>

export const fuelQueryOptions = (address: string | null) =>
  queryOptions({ queryKey: pledgeKeys.fuel(address ?? ''), queryFn: address ? getFuel : skipToken })

export function useFuel() {
  const address = useSignedInAddress()
  // Output, expiry, a new position: each moves the user's money.
  useLiveRefresh('user', fuelQueryOptions(address).queryKey, {
    match: (event) => event.kind === 'balance',
    enabled: address !== null,
  })
  return useQuery(fuelQueryOptions(address))
}
