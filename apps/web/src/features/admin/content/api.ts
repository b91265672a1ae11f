import { type AdminBanner, type AdminNotice, api, type BodyOf } from '@solpledge/contract/client'
import { adminCall, adminSend } from '../api/client.ts'
import { adminKeys } from '../api/keys.ts'
import { useAdminAction } from '../api/use-admin-action.ts'
import { useAdminPages } from '../api/use-admin-pages.ts'

export const useAdminNotices = () => useAdminPages(adminKeys.notices(), (page) => adminCall(api.adminNotices, page))

export const useSaveNotice = (onDone: (notice: AdminNotice) => void) =>
  useAdminAction((body: BodyOf<typeof api.adminNoticeSave>) => adminSend(api.adminNoticeSave, body), onDone)

export const usePublishNotice = () =>
  useAdminAction((body: { id: string; visible: boolean }) => adminSend(api.adminNoticePublish, body))

export const useAdminBanners = () => useAdminPages(adminKeys.banners(), (page) => adminCall(api.adminBanners, page))

export const useSaveBanner = (onDone: (banner: AdminBanner) => void) =>
  useAdminAction((body: BodyOf<typeof api.adminBannerSave>) => adminSend(api.adminBannerSave, body), onDone)

export const usePublishBanner = () =>
  useAdminAction((body: { id: string; visible: boolean }) => adminSend(api.adminBannerPublish, body))
