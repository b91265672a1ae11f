import multipart from '@fastify/multipart'
import { type AdminChange, api, formatAmount, type MessageKey, UPLOAD_MAX_BYTES } from '@solpledge/contract'
import type { FastifyInstance } from 'fastify'
import { allPages } from '../../lib/csv.ts'
import { defineCsvRoute, defineRoute, type SuccessMessage } from '../../lib/route.ts'
import { moneyLog } from '../assets/index.ts'
import { financeList } from '../finance/index.ts'
import { snapshotNow, solvency } from '../liabilities/index.ts'
import { myNodes } from '../node/index.ts'
import { minerList } from '../pledge/index.ts'
import { hotWalletState } from '../system/index.ts'
import { myOrders } from '../trade/index.ts'
import { approveAdjustment, createAdjustment, listAdjustments, rejectAdjustment } from './adjustments.ts'
import { adminRemove, adminSave, listAdmins } from './admins.ts'
import { audit, listAudit } from './audit.ts'
import { approveChange, atText, listChanges, rejectChange, submitChange } from './changes.ts'
import { adminBanners, adminNotices, publishBanner, publishNotice, saveBanner, saveNotice } from './content.ts'
import { economicNotices } from './notices.ts'
import { jobStatus, opsHistory } from './ops.ts'
import { releaseDay } from './release.ts'
import { type AdminLoginSettings, adminLogin, adminLogout, adminMe, adminNonce } from './session.ts'
import { adminAssets, assetHistory, assetSave, configHistory, configSave, currentConfig } from './settings.ts'
import { serveUploads, storeUpload } from './upload.ts'
import { listUsers, requireUser, revokeSessions, userDetail, userSessions } from './users.ts'
import { approve, listWithdrawals, reject } from './withdrawals.ts'

/** The contract's optional page fields after their defaults. */
const paged = (body: { page?: number | undefined; limit?: number | undefined }) => ({
  page: body.page ?? 1,
  limit: body.limit ?? 20,
})

/** The operator console's API (docs/admin.md): every route but the sign-in needs an admin session of its role. */
export async function adminRoutes(
  app: FastifyInstance,
  opts: { login: AdminLoginSettings; rateLimitPerMinute: number; noticeHours: number },
) {
  const db = app.db
  // Counted over all instances: a client gets the limit once, however many instances answer it.
  const limited = { rateLimit: { perMinute: opts.rateLimitPerMinute, shared: true } }
  const saved = { successKey: 'admin.saved' } as const

  defineRoute(app, api.adminNonce, limited, ({ body, request }) =>
    adminNonce(db, opts.login, body.address, request.headers.host),
  )
  defineRoute(app, api.adminLogin, { ...limited, successKey: 'admin.loginSuccess' }, ({ body, request }) =>
    adminLogin(db, opts.login, body, request.ip),
  )
  defineRoute(app, api.adminMe, {}, ({ admin }) => adminMe(db, admin))
  defineRoute(app, api.adminLogout, { successKey: 'admin.logoutSuccess' }, ({ admin }) => adminLogout(db, admin))

  // Changes of the allow-list, the asset settings and the business configuration: applied at once, proposed for a
  // second admin, or scheduled after the notice period (changes.ts).
  const rules = { noticeHours: opts.noticeHours }
  const decided = (data: AdminChange): MessageKey | SuccessMessage | null =>
    data.status === 'pending'
      ? 'admin.changeProposed'
      : data.status === 'scheduled'
        ? { key: 'admin.changeScheduled', params: { at: atText(new Date(data.effective_at ?? Date.now())) } }
        : null
  const change = { successKey: (data: AdminChange) => decided(data) ?? 'admin.saved' }
  defineRoute(app, api.adminAdmins, {}, () => listAdmins(db))
  defineRoute(app, api.adminAdminSave, change, ({ admin, body, commit }) =>
    submitChange(commit, admin, adminSave, body, rules),
  )
  defineRoute(app, api.adminAdminRemove, change, ({ admin, body, commit }) =>
    submitChange(commit, admin, adminRemove, body, rules),
  )
  defineRoute(app, api.adminChanges, {}, ({ body }) => listChanges(db, { status: body.status, ...paged(body) }))
  defineRoute(
    app,
    api.adminChangeApprove,
    { successKey: (data) => decided(data) ?? 'admin.changeApplied' },
    ({ admin, body, commit }) => approveChange(commit, admin, body.id, rules),
  )
  defineRoute(
    app,
    api.adminChangeReject,
    { successKey: (data) => (data.status === 'cancelled' ? 'admin.changeCancelled' : 'admin.changeRejected') },
    ({ admin, body, commit }) => rejectChange(commit, admin, body.id, body.reason),
  )

  // Public: what the admins' decided changes will change, and when (users see it before it applies).
  defineRoute(app, api.economicNotices, {}, () => economicNotices(db, app.config.productSymbol))
  defineRoute(app, api.adminConfig, {}, () => currentConfig(db))
  defineRoute(app, api.adminConfigSave, change, ({ admin, body, commit }) =>
    submitChange(commit, admin, configSave, body, rules),
  )
  defineRoute(app, api.adminConfigHistory, {}, ({ body }) => configHistory(db, paged(body)))
  defineRoute(app, api.adminAssets, {}, () => adminAssets(db))
  defineRoute(app, api.adminAssetSave, change, ({ admin, body, commit }) =>
    submitChange(commit, admin, assetSave, body, rules),
  )
  defineRoute(
    app,
    api.adminSettlementRelease,
    { successKey: (data) => (data.status === 'pending' ? 'admin.changeProposed' : 'settlement.released') },
    ({ admin, body, commit }) => submitChange(commit, admin, releaseDay, body, rules),
  )
  defineRoute(app, api.adminAssetHistory, {}, ({ body }) => assetHistory(db, { coin: body.coin, ...paged(body) }))

  defineRoute(app, api.adminNotices, {}, ({ body }) => adminNotices(db, paged(body)))
  defineRoute(app, api.adminNoticeSave, saved, ({ admin, body }) => saveNotice(db, admin, body))
  defineRoute(app, api.adminNoticePublish, saved, ({ admin, body }) => publishNotice(db, admin, body.id, body.visible))
  defineRoute(app, api.adminBanners, {}, ({ body }) => adminBanners(db, { type: body.type, ...paged(body) }))
  defineRoute(app, api.adminBannerSave, saved, ({ admin, body }) => saveBanner(db, admin, body))
  defineRoute(app, api.adminBannerPublish, saved, ({ admin, body }) => publishBanner(db, admin, body.id, body.visible))
  // Multipart parsing only for the upload route: every other route keeps refusing anything but JSON.
  await app.register(async (scope) => {
    // preservePath: the name as the client sent it, so a name with path parts is seen and refused, not trimmed.
    await scope.register(multipart, { limits: { fileSize: UPLOAD_MAX_BYTES, files: 1 }, preservePath: true })
    defineRoute(scope, api.adminUpload, { successKey: 'admin.uploaded' }, ({ admin, request }) =>
      storeUpload(db, request, app.config.dataDir, admin),
    )
  })
  serveUploads(app, app.config.dataDir)

  defineRoute(app, api.adminWithdrawals, {}, ({ body }) =>
    listWithdrawals(db, { status: body.status, coin: body.coin, address: body.address, ...paged(body) }),
  )
  defineCsvRoute(app, api.adminWithdrawalsCsv, async function* ({ body }) {
    const rows = allPages(async (page, limit) => (await listWithdrawals(db, { ...body, page, limit })).list)
    for await (const w of rows)
      yield [
        w.id,
        w.created_at,
        w.user_address,
        w.coin,
        formatAmount(w.amount, w.decimals),
        formatAmount(w.fee, w.decimals),
        formatAmount(w.receive, w.decimals),
        w.address,
        w.status,
        w.signature,
        w.error,
        w.approvals.map((a) => `${a.admin} ${a.at}`).join(' '),
      ]
  })
  defineRoute(
    app,
    api.adminWithdrawalApprove,
    { successKey: (data) => (data.status === 'pending' ? 'admin.withdrawalApproved' : 'admin.approvalRecorded') },
    ({ admin, body, commit }) => approve(commit, admin, body.id),
  )
  defineRoute(app, api.adminWithdrawalReject, { successKey: 'admin.withdrawalRejected' }, ({ admin, body, commit }) =>
    reject(commit, admin, body.id, body.reason),
  )

  defineRoute(app, api.adminUsers, {}, ({ body }) => listUsers(db, { q: body.q, ...paged(body) }))
  defineCsvRoute(app, api.adminUsersCsv, async function* ({ body }) {
    for await (const user of allPages(async (page, limit) => (await listUsers(db, { q: body.q, page, limit })).list))
      yield [user.id, user.address, user.parent_address, user.created_at]
  })
  defineRoute(app, api.adminUser, {}, ({ body }) => userDetail(db, body.address))
  defineRoute(app, api.adminUserLedger, {}, async ({ body }) => {
    const user = await requireUser(db, body.address)
    return moneyLog(db, user.id, { coin: body.coin, type: body.type, ...paged(body) })
  })
  defineRoute(app, api.adminUserStakes, {}, async ({ body }) => {
    const user = await requireUser(db, body.address)
    return minerList(db, user.id, { status: body.status, ...paged(body) })
  })
  defineRoute(app, api.adminUserNodes, {}, async ({ body }) => myNodes(db, (await requireUser(db, body.address)).id))
  defineRoute(app, api.adminUserFinance, {}, async ({ body }) => {
    const user = await requireUser(db, body.address)
    return financeList(db, user.id, { status: body.status, ...paged(body) })
  })
  defineRoute(app, api.adminUserOrders, {}, async ({ body }) => {
    const user = await requireUser(db, body.address)
    return myOrders(app.trade, user.id, { status: body.status, type: body.type, ...paged(body) })
  })
  defineRoute(app, api.adminUserSessions, {}, ({ body }) => userSessions(db, body.address, paged(body)))
  defineRoute(app, api.adminUserRevoke, { successKey: 'admin.sessionsRevoked' }, ({ admin, body }) =>
    revokeSessions(db, app.sessions, admin, body),
  )

  defineRoute(app, api.adminAdjustments, {}, ({ body }) =>
    listAdjustments(db, { status: body.status, address: body.address, ...paged(body) }),
  )
  defineRoute(
    app,
    api.adminAdjust,
    { successKey: (data) => (data.status === 'applied' ? 'admin.adjustmentApplied' : 'admin.adjustmentPending') },
    ({ admin, body, commit }) => createAdjustment(db, commit, admin, body),
  )
  defineRoute(app, api.adminAdjustApprove, { successKey: 'admin.adjustmentApplied' }, ({ admin, body, commit }) =>
    approveAdjustment(commit, admin, body.id),
  )
  defineRoute(app, api.adminAdjustReject, { successKey: 'admin.adjustmentRejected' }, ({ admin, body, commit }) =>
    rejectAdjustment(commit, admin, body.id, body.reason),
  )

  defineRoute(app, api.adminSolvency, {}, () => solvency(db, app.platform))
  // A proof-of-liabilities snapshot now (retries with the same Idempotency-Key replay the first answer), audited in the
  // transaction of the answer; the snapshot itself is taken and published before (docs/money.md).
  defineRoute(app, api.adminPolSnapshot, {}, async ({ admin, commit }) => {
    const root = await snapshotNow(db, app.platform)
    return commit(async (trx) => {
      await audit(trx, admin, 'liabilities.snapshot', `snapshot:${root.snapshot_id}`, {
        root: root.root,
        signature: root.signature,
      })
      return root
    })
  })
  defineRoute(app, api.adminJobs, {}, () => jobStatus(db, hotWalletState(app.platform)))
  defineRoute(app, api.adminHistory, {}, () => opsHistory(db))
  defineRoute(app, api.adminAudit, {}, ({ body }) => listAudit(db, { ...body, ...paged(body) }))
  defineCsvRoute(app, api.adminAuditCsv, async function* ({ body }) {
    for await (const entry of allPages(async (page, limit) => (await listAudit(db, { ...body, page, limit })).list))
      yield [
        entry.id,
        entry.at,
        entry.actor,
        entry.role,
        entry.action,
        entry.target,
        entry.details === null ? null : JSON.stringify(entry.details),
        entry.ip,
      ]
  })
}
