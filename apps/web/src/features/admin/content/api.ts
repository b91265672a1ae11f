import { type AdminBanner, type AdminNotice, api } from '@solpledge/contract/client'
import { adminCall } from '../api/client.ts'
import { adminKeys } from '../api/keys.ts'
import { useAdminAction } from '../api/use-admin-action.ts'
import { useAdminPages } from '../api/use-admin-pages.ts'

export const useAdminNotices = () => useAdminPages(adminKeys.notices(), (page) => adminCall(api.adminNotices, page))

export const useSaveNotice = (onDone: (notice: AdminNotice) => void) => useAdminAction(api.adminNoticeSave, onDone)

export const usePublishNotice = () => useAdminAction(api.adminNoticePublish)

export const useAdminBanners = () => useAdminPages(adminKeys.banners(), (page) => adminCall(api.adminBanners, page))

export const useSaveBanner = (onDone: (banner: AdminBanner) => void) => useAdminAction(api.adminBannerSave, onDone)

export const usePublishBanner = () => useAdminAction(api.adminBannerPublish)
