import { api, type UserCampaign } from '@solpledge/contract/client'
import { queryOptions, skipToken, useQuery } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { call } from '@/lib/api-client.ts'
import { useLiveRefresh } from '@/lib/live/use-live.ts'
import { useSignedInAddress } from '@/lib/session.ts'
import { noticeKeys } from './keys.ts'

export type { UserCampaign }

export const campaignsQueryOptions = (address: string | null, lang: string) =>
  queryOptions({
    queryKey: noticeKeys.campaigns(address ?? '', lang),
    queryFn: address ? () => call(api.campaignList, {}) : skipToken,
  })

/**
 * The signed-in user's campaigns (running, then ended ones with their result); nothing is asked signed out. Read again
 * on the user topic's 'team' events: a new direct member, and, while a campaign runs, every new position below the user
 * (the figures of the tiers move with it), so the progress page follows without polling.
 */
export function useCampaigns() {
  const address = useSignedInAddress()
  const { i18n } = useTranslation()
  const options = campaignsQueryOptions(address, i18n.language)
  useLiveRefresh('user', options.queryKey, {
    match: (event) => event.kind === 'team',
    enabled: address !== null,
  })
  return useQuery(options)
}
