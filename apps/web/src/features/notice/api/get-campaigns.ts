import { api, type UserCampaign } from '@solpledge/contract/client'
import { queryOptions, skipToken, useQuery } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { call } from '@/lib/api-client.ts'
import { useLiveRefresh } from '@/lib/live/use-live.ts'
import { useSignedInAddress } from '@/lib/session.ts'
import { noticeKeys } from './keys.ts'

export type { UserCampaign }

/**
 * How often the progress page reads the figures again: a direct member's stake moves them, and no live event carries
 * an ancestor's figures (they change with every stake below), so the page asks again — besides when the app regains
 * focus and when a new direct member binds (the user topic's 'team' event).
 */
const PROGRESS_REFRESH_MS = 30_000

export const campaignsQueryOptions = (address: string | null, lang: string) =>
  queryOptions({
    queryKey: noticeKeys.campaigns(address ?? '', lang),
    queryFn: address ? () => call(api.campaignList, {}) : skipToken,
  })

/**
 * The signed-in user's campaigns (running, then ended ones with their result); nothing is asked signed out.
 * `progress`: the screen shows the progress, read again every PROGRESS_REFRESH_MS while it is visible.
 */
export function useCampaigns({ progress = false }: { progress?: boolean } = {}) {
  const address = useSignedInAddress()
  const { i18n } = useTranslation()
  const options = {
    ...campaignsQueryOptions(address, i18n.language),
    refetchInterval: progress ? PROGRESS_REFRESH_MS : (false as const),
  }
  useLiveRefresh('user', options.queryKey, {
    match: (event) => event.kind === 'team',
    enabled: address !== null,
  })
  return useQuery(options)
}
