import { adminApi } from '@solpledge/contract/admin'
import type { AdminBanner, AdminNotice } from '@solpledge/contract/client'
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
