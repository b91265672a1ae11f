import { adminApi } from '@solpledge/contract/admin'
import type { AdminBanner, AdminCampaign, AdminNotice } from '@solpledge/contract/client'
import { useQuery } from '@tanstack/react-query'
import { adminCall } from '@/admin/lib/api-client.ts'
import { adminKeys } from '@/admin/lib/query-keys.ts'
import { useAdminAction } from '@/admin/lib/use-admin-action.ts'
import { useAdminPages } from '@/admin/lib/use-admin-pages.ts'

export const useAdminNotices = () =>
  useAdminPages(adminKeys.notices(), (page) => adminCall(adminApi.adminNotices, page))

export const useSaveNotice = (onDone: (notice: AdminNotice) => void) => useAdminAction(adminApi.adminNoticeSave, onDone)

export const usePublishNotice = () => useAdminAction(adminApi.adminNoticePublish)

export const useAdminBanners = () =>
  useAdminPages(adminKeys.banners(), (page) => adminCall(adminApi.adminBanners, page))

export const useSaveBanner = (onDone: (banner: AdminBanner) => void) => useAdminAction(adminApi.adminBannerSave, onDone)

export const usePublishBanner = () => useAdminAction(adminApi.adminBannerPublish)

export const useAdminCampaigns = () =>
  useAdminPages(adminKeys.campaigns(), (page) => adminCall(adminApi.adminCampaigns, page))

export const useSaveCampaign = (onDone: (campaign: AdminCampaign) => void) =>
  useAdminAction(adminApi.adminCampaignSave, onDone)

export const useCampaignQualifiers = (id: string) =>
  useAdminPages(adminKeys.campaignQualifiers(id), (page) =>
    adminCall(adminApi.adminCampaignQualifiers, { id, ...page }),
  )

export const useGrantRewards = (onDone: () => void) => useAdminAction(adminApi.adminCampaignGrant, onDone)

/** The node levels the configuration offers now: what a campaign's node reward can name. */
export const useNodeLevels = () =>
  useQuery({
    queryKey: adminKeys.config(),
    queryFn: () => adminCall(adminApi.adminConfig, {}),
    select: (version) => version.value.nodeLevels.map((level) => level.code),
  })
