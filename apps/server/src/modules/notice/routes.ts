import { api } from '@solpledge/contract'
import type { FastifyInstance } from 'fastify'
import { defineRoute } from '../../lib/route.ts'
import { listBanners, listNotices, noticeInfo } from './service.ts'

/** Notices and banners: public, in the request's accept-language with en as the fallback. */
export async function noticeRoutes(app: FastifyInstance) {
  defineRoute(app, api.noticeList, {}, ({ body, request }) => listNotices(app.db, request.lang, body))
  defineRoute(app, api.noticeInfo, {}, ({ body, request }) => noticeInfo(app.db, request.lang, body.id))
  defineRoute(app, api.bannerList, {}, ({ body, request }) => listBanners(app.db, request.lang, body))
}
