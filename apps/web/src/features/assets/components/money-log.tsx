import {
  type AssetBalance,
  api,
  LEDGER_TYPES,
  type LedgerEntry,
  type LedgerType,
  type Withdrawal,
} from '@solpledge/contract/client'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { LoadMore } from '@/components/load-more.tsx'
import { EmptyState } from '@/components/page.tsx'
import { SignatureLink } from '@/components/signature-link.tsx'
import { download } from '@/lib/api-client.ts'
import { formatDateTime, formatDay } from '@/lib/format.ts'
import { flattenPages } from '@/lib/paging.ts'
import { reportActionError } from '@/lib/report-action-error.ts'
import { saveFile } from '@/lib/save-file.ts'
import { useFormat } from '@/lib/use-format.ts'
import { useMoneyLog } from '../api/get-money-log.ts'
import { useWithdrawals } from '../api/get-withdrawals.ts'
import { type Movement, movementsOf, withdrawalAmount, withdrawalState } from '../utils/movements.ts'
import { WithdrawalBadge } from './withdrawal-list.tsx'

/** The asset's ledger entries, newest first, 20 at a time, of every type or of the one chosen. */
export function MoneyLog({ asset }: { asset: AssetBalance }) {
  const { t, i18n } = useTranslation()
  const format = useFormat()
  const [type, setType] = useState<LedgerType | ''>('')
  const { data, isError, hasNextPage, fetchNextPage, isFetchingNextPage } = useMoneyLog(asset.coin, type || undefined)
  const movements = data ? movementsOf(flattenPages(data.pages, (entry) => `${entry.id}:${entry.account}`)) : []
  const money = (units: string, kind: 'balance' | 'exact') => format.money(units, asset, kind, true)
  // The asset's withdrawals as loaded for the list above (the same query): a withdrawal row's state, link and reason.
  const loaded = useWithdrawals(asset.coin).data
  const withdrawals = new Map(loaded ? flattenPages(loaded.pages).map((item) => [item.id, item]) : [])
  // The whole history of the asset, of the type chosen, as a CSV file (UTC times, amounts in the asset's units).
  const [exporting, setExporting] = useState(false)
  const exportFile = async () => {
    setExporting(true)
    try {
      const { file, name } = await download(api.moneyLogCsv, { coin: asset.coin, ...(type && { type }) })
      saveFile(file, name)
    } catch (error) {
      reportActionError(error)
    } finally {
      setExporting(false)
    }
  }

  return (
    <section className="money-log" aria-labelledby="money-log-title">
      <div className="section-head">
        <h2 id="money-log-title" className="section-title">
          {t('assets.detail.history')}
        </h2>
        <div className="money-log-tools">
          <select
            className="money-log-filter"
            aria-label={t('assets.detail.filter')}
            data-testid="money-log-filter"
            value={type}
            onChange={(event) => setType(event.target.value as LedgerType | '')}
          >
            <option value="">{t('assets.detail.allTypes')}</option>
            {LEDGER_TYPES.map((option) => (
              <option key={option} value={option}>
                {t(`assets.detail.types.${option}`)}
              </option>
            ))}
          </select>
          <button
            type="button"
            className="outline-button money-log-export"
            data-testid="money-log-export"
            disabled={exporting}
            onClick={exportFile}
          >
            {t('assets.detail.export')}
          </button>
        </div>
      </div>
      {!data ? (
        <p className="muted-note">{isError ? t('assets.detail.unavailable') : t('common.loading')}</p>
      ) : movements.length === 0 ? (
        <EmptyState text={t('assets.detail.empty')} />
      ) : (
        <ul className="card money-log-list" data-testid="money-log">
          {movements.map((movement) =>
            movement.kind === 'withdrawal' ? (
              <WithdrawalRow
                key={movement.key}
                movement={movement}
                withdrawal={withdrawals.get(movement.id)}
                money={money}
              />
            ) : (
              <li key={movement.key} className="money-log-row" data-testid="money-log-row" data-type={movement.type}>
                <details>
                  <summary className="money-log-summary">
                    <span className="money-log-main">
                      <span className="money-log-type">{t(`assets.detail.types.${movement.type}`)}</span>
                      {movement.day && (
                        <span className="money-log-day" data-testid="money-log-day" data-day={movement.day}>
                          {t('assets.detail.forDay', { day: formatDay(movement.day, i18n.resolvedLanguage) })}
                        </span>
                      )}
                      <time className="money-log-time" dateTime={movement.created_at}>
                        {formatDateTime(movement.created_at, i18n.resolvedLanguage)}
                      </time>
                    </span>
                    <span className="money-log-side">
                      {movement.legs.map((leg) => (
                        <span key={leg.account} className="money-log-leg">
                          <span
                            className={`money-log-amount ${legClass(leg)}`}
                            data-testid="money-log-amount"
                            data-account={leg.account}
                          >
                            {money(leg.amount, 'balance')}
                          </span>
                          <span className="money-log-account">{t(`assets.detail.accounts.${leg.account}`)}</span>
                        </span>
                      ))}
                    </span>
                  </summary>
                  <dl className="money-log-exact" data-exact>
                    {movement.legs.map((leg) => (
                      <div key={leg.account}>
                        <dt>{t(`assets.detail.accounts.${leg.account}`)}</dt>
                        <dd data-testid="money-log-exact">{money(leg.amount, 'exact')}</dd>
                      </div>
                    ))}
                  </dl>
                </details>
              </li>
            ),
          )}
        </ul>
      )}
      {hasNextPage && <LoadMore testId="money-log-more" loading={isFetchingNextPage} onLoad={() => fetchNextPage()} />}
    </section>
  )
}

/** Green in, red out of the available balance; money entering or leaving the locked balance is neither. */
const legClass = (leg: LedgerEntry) =>
  leg.account === 'locked' ? 'is-locked' : leg.amount.startsWith('-') ? 'is-out' : 'is-in'

interface WithdrawalRowProps {
  movement: Extract<Movement, { kind: 'withdrawal' }>
  withdrawal: Withdrawal | undefined
  money: (units: string, kind: 'balance' | 'exact') => string
}

/**
 * A withdrawal as one row of the history: what left the available balance, its state, its transaction on the explorer
 * and, when rejected, the reason; its ledger entries (the request, the payout and the fee, or the refund) when opened.
 */
function WithdrawalRow({ movement, withdrawal, money }: WithdrawalRowProps) {
  const { t, i18n } = useTranslation()
  const state = withdrawalState(movement.legs, withdrawal)
  const amount = withdrawalAmount(movement.legs, withdrawal).toString()
  return (
    <li className="money-log-row" data-testid="money-log-row" data-type="withdrawal" data-status={state}>
      <details>
        <summary className="money-log-summary">
          <span className="money-log-main">
            <span className="money-log-type">{t('assets.detail.withdrawal')}</span>
            <WithdrawalBadge state={state} />
            <time className="money-log-time" dateTime={movement.created_at}>
              {formatDateTime(movement.created_at, i18n.resolvedLanguage)}
            </time>
          </span>
          <span className="money-log-side">
            <span className="money-log-leg">
              <span className="money-log-amount is-out" data-testid="money-log-amount" data-account="available">
                {money(amount, 'balance')}
              </span>
              <span className="money-log-account">{t('assets.detail.accounts.available')}</span>
            </span>
          </span>
        </summary>
        {withdrawal?.signature && <SignatureLink signature={withdrawal.signature} testId="money-log-signature" />}
        {withdrawal?.reason && (
          <p className="withdrawal-reason" data-testid="money-log-reason">
            {t('assets.withdrawals.reason', { reason: withdrawal.reason })}
          </p>
        )}
        <dl className="money-log-exact" data-exact>
          {movement.legs.map((leg) => (
            <div key={`${leg.id}:${leg.account}`}>
              <dt>
                {t(`assets.detail.types.${leg.type}`)} · {t(`assets.detail.accounts.${leg.account}`)}
              </dt>
              <dd data-testid="money-log-exact">{money(leg.amount, 'exact')}</dd>
            </div>
          ))}
        </dl>
      </details>
    </li>
  )
}
