import { type AssetBalance, formatAmount, type LedgerEntry } from '@solpledge/contract/client'
import { useTranslation } from 'react-i18next'
import { LoadMore } from '../../../components/load-more.tsx'
import { EmptyState } from '../../../components/page.tsx'
import type en from '../../../i18n/en.json'
import { formatDateTime } from '../../../lib/format.ts'
import { flattenPages } from '../../../lib/paging.ts'
import { useMoneyLog } from '../api/get-money-log.ts'

type EntryType = keyof typeof en.assets.detail.types
const entryTypes = new Set<string>([
  'deposit',
  'withdraw',
  'withdraw_lock',
  'withdraw_refund',
  'withdraw_fee',
  'node_purchase',
  'stake',
  'pledge_output',
  'finance_deposit',
  'finance_output',
  'finance_redeem',
  'node_dividend',
  'referral_reward',
  'settlement',
] satisfies EntryType[])
const isKnownType = (type: string): type is EntryType => entryTypes.has(type)

/** The asset's ledger entries, newest first, 20 at a time. */
export function MoneyLog({ asset }: { asset: AssetBalance }) {
  const { t, i18n } = useTranslation()
  const { data, isError, hasNextPage, fetchNextPage, isFetchingNextPage } = useMoneyLog(asset.coin)
  const entries = data ? flattenPages(data.pages) : []

  const typeLabel = (entry: LedgerEntry) =>
    isKnownType(entry.type) ? t(`assets.detail.types.${entry.type}`) : entry.type

  return (
    <section className="money-log" aria-labelledby="money-log-title">
      <h2 id="money-log-title" className="section-title">
        {t('assets.detail.history')}
      </h2>
      {!data ? (
        <p className="muted-note">{isError ? t('assets.detail.unavailable') : t('common.loading')}</p>
      ) : entries.length === 0 ? (
        <EmptyState text={t('assets.detail.empty')} />
      ) : (
        <ul className="card money-log-list" data-testid="money-log">
          {entries.map((entry) => {
            const negative = entry.amount.startsWith('-')
            return (
              <li key={entry.id} className="money-log-row" data-testid="money-log-row" data-type={entry.type}>
                <div className="money-log-main">
                  <span className="money-log-type">{typeLabel(entry)}</span>
                  <time className="money-log-time" dateTime={entry.created_at}>
                    {formatDateTime(entry.created_at, i18n.resolvedLanguage)}
                  </time>
                </div>
                <div className="money-log-side">
                  <span
                    className={negative ? 'money-log-amount is-out' : 'money-log-amount is-in'}
                    data-testid="money-log-amount"
                  >
                    {negative ? '' : '+'}
                    {formatAmount(entry.amount, asset.decimals)}
                  </span>
                  <span className="money-log-account">{t(`assets.detail.accounts.${entry.account}`)}</span>
                </div>
              </li>
            )
          })}
        </ul>
      )}
      {hasNextPage && <LoadMore testId="money-log-more" loading={isFetchingNextPage} onLoad={() => fetchNextPage()} />}
    </section>
  )
}
