import { adminApi } from '@solpledge/contract/admin'
import type { JobStatus } from '@solpledge/contract/client'
import { useQuery } from '@tanstack/react-query'
import { type ReactNode, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { ConfirmDialog } from '@/admin/components/confirm-dialog.tsx'
import { AdminPage, ListState, Panel, TableWrap, Time } from '@/admin/components/ui.tsx'
import { adminCall, useAllowed } from '@/admin/lib/api-client.ts'
import { SAFETY_REFRESH_MS, useConsoleRefresh } from '@/admin/lib/live.ts'
import { adminKeys } from '@/admin/lib/query-keys.ts'
import { bpsToPercent, formatUnits } from '@/admin/lib/units.ts'
import { useAdminAction } from '@/admin/lib/use-admin-action.ts'
import { Facts } from '@/components/facts.tsx'
import { formatDateTime } from '@/lib/format.ts'
import { History } from './history.tsx'

/**
 * Operations: the release the server runs, the solvency report (what users are owed against what the platform holds on
 * chain), the jobs (the last settled day, the deposit watcher's lag and the withdrawal sender's queue) and the last 30
 * days in small charts.
 */
export function OperationsScreen() {
  const { t } = useTranslation('admin')
  // Withdrawals and failing jobs are pushed (the console topic); what moves without a push — the holdings on chain,
  // the jobs' lag as time passes — is read again every few minutes.
  useConsoleRefresh(adminKeys.solvency(), (event) => event.kind === 'withdrawal')
  useConsoleRefresh(adminKeys.jobs(), (event) => event.kind === 'withdrawal' || event.kind === 'job')
  const solvency = useQuery({
    queryKey: adminKeys.solvency(),
    queryFn: () => adminCall(adminApi.adminSolvency, {}),
    refetchInterval: SAFETY_REFRESH_MS,
  })
  const jobs = useQuery({
    queryKey: adminKeys.jobs(),
    queryFn: () => adminCall(adminApi.adminJobs, {}),
    refetchInterval: SAFETY_REFRESH_MS,
  })

  return (
    <AdminPage title={t('sections.operations')}>
      {jobs.data && (
        <p className="muted-note" data-testid="admin-release">
          {t('operations.release', { ...jobs.data.release, commit: jobs.data.release.commit.slice(0, 12) })}
        </p>
      )}
      <Panel
        title={t('operations.solvency')}
        testId="admin-solvency"
        actions={
          solvency.data && (
            <span className="muted-note">
              {t('operations.readAt')} <Time iso={solvency.data.read_at} />
            </span>
          )
        }
      >
        {!solvency.data ? (
          <ListState query={solvency} empty={false} />
        ) : (
          <TableWrap>
            <table className="admin-table">
              <thead>
                <tr>
                  <th>{t('withdrawals.coin')}</th>
                  <th className="admin-num">{t('operations.liabilities')}</th>
                  <th className="admin-num">{t('operations.treasury')}</th>
                  <th className="admin-num">{t('operations.hotWallet')}</th>
                  <th className="admin-num">{t('operations.holdings')}</th>
                  <th>{t('operations.covered')}</th>
                </tr>
              </thead>
              <tbody>
                {solvency.data.list.map((row) => (
                  <tr key={row.coin} data-testid="admin-solvency-row" data-coin={row.coin}>
                    <td>{row.coin}</td>
                    <td className="admin-num">{formatUnits(row.liabilities, row.decimals)}</td>
                    <td className="admin-num">{formatUnits(row.treasury, row.decimals)}</td>
                    <td className="admin-num">{formatUnits(row.hot_wallet, row.decimals)}</td>
                    <td className="admin-num">{formatUnits(row.holdings, row.decimals)}</td>
                    <td>
                      <span className={row.covered ? 'badge badge-ok' : 'badge badge-bad'}>
                        {row.covered ? t('operations.yes') : t('operations.no')}
                      </span>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableWrap>
        )}
      </Panel>
      {jobs.data?.settlement.held && <HeldDay held={jobs.data.settlement.held} />}
      {jobs.data && <FourEyes status={jobs.data.four_eyes} />}
      {!jobs.data ? <ListState query={jobs} empty={false} /> : <Jobs status={jobs.data} />}
      <History />
    </AdminPage>
  )
}

type Held = NonNullable<JobStatus['settlement']['held']>

/**
 * A settlement day the circuit breaker holds (docs/settlement.md): why (per asset, the day's payout against the
 * trailing average or the reserves, and the limit), and **Release** (after a confirmation) for admins; once two admins
 * exist the release waits for the other one.
 */
function HeldDay({ held }: { held: Held }) {
  const { t, i18n } = useTranslation('admin')
  const canRelease = useAllowed(adminApi.adminSettlementRelease)
  const [confirming, setConfirming] = useState(false)
  const release = useAdminAction(adminApi.adminSettlementRelease, () => setConfirming(false))
  return (
    <Panel title={t('operations.held.title')} testId="admin-settlement-held">
      <p className="admin-error" data-testid="admin-held-day" data-day={held.day}>
        {t('operations.held.text', { day: held.day, at: formatDateTime(held.held_at, i18n.resolvedLanguage) })}
      </p>
      <ul className="admin-changes">
        {held.reasons.map((reason) => (
          <li key={`${reason.coin}-${reason.rule}`} data-testid="admin-held-reason" data-rule={reason.rule}>
            {t(`operations.held.${reason.rule}`, {
              coin: reason.coin,
              total: formatUnits(reason.total, reason.decimals, reason.coin),
              against: formatUnits(reason.against, reason.decimals, reason.coin),
              limit: `${bpsToPercent(reason.limit_bps)} %`,
            })}
          </li>
        ))}
      </ul>
      {held.release_change !== null ? (
        <p className="muted-note">{t('operations.held.releasePending')}</p>
      ) : (
        canRelease && (
          <div className="admin-actions">
            <button
              type="button"
              className="admin-button admin-primary"
              data-testid="admin-held-release"
              onClick={() => setConfirming(true)}
            >
              {t('operations.held.release')}
            </button>
          </div>
        )
      )}
      <ConfirmDialog
        open={confirming}
        title={t('operations.held.title')}
        confirm={t('operations.held.release')}
        pending={release.isPending}
        onConfirm={() => release.mutate({ day: held.day })}
        onClose={() => setConfirming(false)}
      >
        {t('operations.held.releaseText', { day: held.day })}
      </ConfirmDialog>
    </Panel>
  )
}

/** Whether a second person can approve: with one admin (or one reviewer) the four-eyes rules cannot apply. */
function FourEyes({ status }: { status: JobStatus['four_eyes'] }) {
  const { t } = useTranslation('admin')
  const warnings = [
    status.admins < 2 && { id: 'admins', text: t('fourEyes.oneAdmin') },
    status.reviewers < 2 && { id: 'reviewers', text: t('fourEyes.oneReviewer') },
  ].filter((warning) => warning !== false)
  return (
    <Panel title={t('fourEyes.title')} testId="admin-four-eyes">
      {warnings.length === 0 ? (
        <p className="muted-note">{t('fourEyes.ok', status)}</p>
      ) : (
        warnings.map((warning) => (
          <p key={warning.id} className="admin-error" data-testid="admin-four-eyes-warning" data-kind={warning.id}>
            {warning.text}
          </p>
        ))
      )}
    </Panel>
  )
}

function Jobs({ status }: { status: JobStatus }) {
  const { t } = useTranslation('admin')
  const { settlement, watcher, sender } = status
  const hot = sender.hot_wallet
  const lag = (seconds: number | null) => (seconds === null ? '—' : t('operations.seconds', { count: seconds }))
  const late = (value: ReactNode, bad: boolean) => <span className={bad ? 'badge badge-bad' : undefined}>{value}</span>
  return (
    <>
      <div className="admin-grid">
        <Panel title={t('operations.settlement')} testId="admin-job-settlement">
          <Facts
            facts={[
              {
                id: 'last',
                label: t('operations.lastDay'),
                value: settlement.last_done_day ?? '—',
                testId: 'admin-last-settled-day',
              },
              { id: 'finished', label: t('operations.finishedAt'), value: <Time iso={settlement.last_finished_at} /> },
              { id: 'running', label: t('operations.runningDay'), value: settlement.running_day ?? '—' },
              { id: 'due', label: t('operations.latestDue'), value: settlement.latest_due_day },
              {
                id: 'behind',
                label: t('operations.daysBehind'),
                value: late(settlement.days_behind, settlement.days_behind > 0),
              },
            ]}
          />
        </Panel>
        <Panel title={t('operations.watcher')} testId="admin-job-watcher">
          <Facts
            facts={[
              { id: 'lag', label: t('operations.lag'), value: lag(watcher.lag_seconds), testId: 'admin-watcher-lag' },
              { id: 'pending', label: t('operations.pendingIntents'), value: watcher.pending_intents },
              { id: 'oldest', label: t('operations.oldest'), value: <Time iso={watcher.oldest_pending_at} /> },
            ]}
          />
        </Panel>
        <Panel title={t('operations.sender')} testId="admin-job-sender">
          <Facts
            facts={[
              { id: 'review', label: t('withdrawals.statuses.review'), value: sender.review },
              { id: 'pending', label: t('withdrawals.statuses.pending'), value: sender.pending },
              { id: 'sent', label: t('withdrawals.statuses.sent'), value: sender.sent },
              { id: 'failed', label: t('withdrawals.statuses.failed'), value: late(sender.failed, sender.failed > 0) },
              { id: 'oldest', label: t('operations.oldest'), value: <Time iso={sender.oldest_open_at} /> },
              { id: 'lag', label: t('operations.lag'), value: lag(sender.lag_seconds) },
              { id: 'hot', label: t('operations.hotWallet'), value: <code>{hot.address}</code> },
              {
                id: 'hot-state',
                label: t('operations.hotWalletState'),
                testId: 'admin-hot-wallet',
                value: hot.problem ? (
                  <span title={hot.problem.detail}>
                    {late(t(`operations.hotWalletProblem.${hot.problem.kind}`, hot.problem), true)}
                  </span>
                ) : (
                  t('operations.hotWalletOk')
                ),
              },
              { id: 'refused', label: t('operations.refused'), value: late(hot.refused_total, hot.refused_total > 0) },
            ]}
          />
        </Panel>
      </div>
      <Panel title={t('operations.jobs')} testId="admin-jobs">
        <TableWrap>
          <table className="admin-table">
            <thead>
              <tr>
                <th>{t('operations.job')}</th>
                <th>{t('operations.lastRun')}</th>
                <th>{t('operations.lastOk')}</th>
                <th>{t('operations.lastError')}</th>
              </tr>
            </thead>
            <tbody>
              {status.jobs.map((job) => (
                <tr key={job.name} data-testid="admin-job-row" data-job={job.name}>
                  <td>{job.name}</td>
                  <td>
                    <Time iso={job.last_run_at} />
                  </td>
                  <td>
                    <Time iso={job.last_ok_at} />
                  </td>
                  <td className="admin-wrap">{job.last_error ?? '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableWrap>
      </Panel>
    </>
  )
}
