import type { AssetBalance } from '@solpledge/contract/client'
import { useTranslation } from 'react-i18next'
import { LoadMore } from '@/components/load-more.tsx'
import { EmptyState } from '@/components/page.tsx'
import { SignatureLink } from '@/components/signature-link.tsx'
import { formatDateTime } from '@/lib/format.ts'
import { flattenPages } from '@/lib/paging.ts'
import { useFormat } from '@/lib/use-format.ts'
import { useWithdrawals } from '../api/get-withdrawals.ts'
import { type WithdrawalState, withdrawalTone } from '../utils/movements.ts'

/** A withdrawal's state as a badge (test id `withdrawal-status`), here and in the asset's history. */
export function WithdrawalBadge({ state }: { state: WithdrawalState }) {
  const { t } = useTranslation()
  return (
    <span className={`badge badge-${withdrawalTone[state]} withdrawal-status`} data-testid="withdrawal-status">
      {t(`assets.withdrawals.status.${state}`)}
    </span>
  )
}

/** The asset's withdrawals, newest first, 20 at a time; their status follows the live channel. */
export function WithdrawalList({ asset }: { asset: AssetBalance }) {
  const { t, i18n } = useTranslation()
  const format = useFormat()
  const { data, isError, hasNextPage, fetchNextPage, isFetchingNextPage } = useWithdrawals(asset.coin)
  const withdrawals = data ? flattenPages(data.pages) : []
  const amount = (units: string) => format.amount(units, asset, 'exact')

  return (
    <section className="money-log" aria-labelledby="withdrawals-title">
      <h2 id="withdrawals-title" className="section-title">
        {t('assets.withdrawals.title')}
      </h2>
      {!data ? (
        <p className="muted-note">{isError ? t('assets.detail.unavailable') : t('common.loading')}</p>
      ) : withdrawals.length === 0 ? (
        <EmptyState text={t('assets.withdrawals.empty')} />
      ) : (
        <ul className="card money-log-list" data-testid="withdrawal-list">
          {withdrawals.map((withdrawal) => (
            <li
              key={withdrawal.id}
              className="money-log-row"
              data-testid="withdrawal-row"
              data-status={withdrawal.status}
            >
              <div className="money-log-main">
                <WithdrawalBadge state={withdrawal.status} />
                <time className="money-log-time" dateTime={withdrawal.created_at}>
                  {formatDateTime(withdrawal.created_at, i18n.resolvedLanguage)}
                </time>
                {withdrawal.signature && (
                  <SignatureLink signature={withdrawal.signature} testId="withdrawal-signature" />
                )}
                {withdrawal.reason && (
                  <span className="withdrawal-reason" data-testid="withdrawal-reason">
                    {t('assets.withdrawals.reason', { reason: withdrawal.reason })}
                  </span>
                )}
              </div>
              <div className="money-log-side" data-exact>
                <span className="money-log-amount" data-testid="withdrawal-amount">
                  {amount(withdrawal.amount)}
                </span>
                <span className="money-log-account" data-testid="withdrawal-fee">
                  {t('assets.withdrawals.fee', { amount: amount(withdrawal.fee) })}
                </span>
                <span className="money-log-account" data-testid="withdrawal-receive">
                  {t('assets.withdrawals.receive', { amount: amount(withdrawal.receive) })}
                </span>
              </div>
            </li>
          ))}
        </ul>
      )}
      {hasNextPage && <LoadMore testId="withdrawal-more" loading={isFetchingNextPage} onLoad={() => fetchNextPage()} />}
    </section>
  )
}
