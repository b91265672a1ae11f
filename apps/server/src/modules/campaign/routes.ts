import { api, formatAmount } from '@solpledge/contract'
import type { FastifyInstance } from 'fastify'
import { allPages } from '../../lib/csv.ts'
import { defineCsvRoute, defineRoute } from '../../lib/route.ts'
import { usdtDecimals } from '../team/index.ts'
import { adminCampaigns, campaignQualifiers, grantRewards, rewardText, saveCampaign, userCampaigns } from './service.ts'

/** The contract's optional page fields after their defaults (as the console's other lists). */
const paged = (body: { page?: number | undefined; limit?: number | undefined }) => ({
  page: body.page ?? 1,
  limit: body.limit ?? 20,
})

/** Campaigns: the signed-in user's list with their progress, and the console's routes (docs/admin.md#campaigns). */
export async function campaignRoutes(app: FastifyInstance) {
  const db = app.db
  defineRoute(app, api.campaignList, {}, ({ user, request }) => userCampaigns(db, user.id, request.lang))

  defineRoute(app, api.adminCampaigns, {}, ({ body }) => adminCampaigns(db, paged(body)))
  defineRoute(app, api.adminCampaignSave, { successKey: 'admin.saved' }, ({ admin, body }) =>
    saveCampaign(db, admin, body),
  )
  defineRoute(app, api.adminCampaignQualifiers, {}, ({ body }) =>
    campaignQualifiers(db, { id: body.id, ...paged(body) }),
  )
  defineCsvRoute(app, api.adminCampaignQualifiersCsv, async function* ({ body }) {
    const decimals = await usdtDecimals(db)
    const rows = allPages(async (page, limit) => (await campaignQualifiers(db, { id: body.id, page, limit })).list)
    for await (const q of rows)
      yield [
        q.id,
        q.address,
        q.direct_count,
        formatAmount(q.fuel, decimals),
        q.tier,
        rewardText(q.reward),
        q.adjustment_status,
      ]
  })
  defineRoute(
    app,
    api.adminCampaignGrant,
    { successKey: (data) => ({ key: 'campaign.rewardsProposed', params: { ...data } }) },
    ({ admin, body, commit }) => grantRewards(db, commit, admin, body.id),
  )
}
