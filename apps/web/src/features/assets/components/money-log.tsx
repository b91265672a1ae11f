import { type AssetBalance, LEDGER_TYPES, type LedgerEntry, type LedgerType } from '@solpledge/contract/client'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { LoadMore } from '@/components/load-more.tsx'
import { EmptyState } from '@/components/page.tsx'
import { formatDateTime, formatDay } from '@/lib/format.ts'
import { flattenPages } from '@/lib/paging.ts'
import { useFormat } from '@/lib/use-format.ts'
import { useMoneyLog } from '../api/get-money-log.ts'

/**
 * One ledger transfer as the user sees it: its entries in the user's accounts of this asset. A transfer between two
 * of them (withdrawal requested: available → locked) has two, one leaving available and one entering locked.
 */
interface Movement {
  id: string
  type: LedgerType
  day: string | null
  created_at: string
  legs: LedgerEntry[]
}

/** Entries grouped by transfer, in order: the two entries of one transfer are adjacent (same id, by account). */
function movementsOf(entries: readonly LedgerEntry[]): Movement[] {
  const movements: Movement[] = []
  for (const entry of entries) {
    const last = movements.at(-1)
    if (last?.id === entry.id) last.legs.push(entry)
    else movements.push({ id: entry.id, type: entry.type, day: entry.day, created_at: entry.created_at, legs: [entry] })
  }
  for (const movement of movements)
    movement.legs.sort((a, b) => Number(a.account === 'locked') - Number(b.account === 'locked'))
  return movements
}

/** The asset's ledger entries, newest first, 20 at a time, of every type or of the one chosen. */
export function MoneyLog({ asset }: { asset: AssetBalance }) {
  const { t, i18n } = useTranslation()
  const format = useFormat()
  const [type, setType] = useState<LedgerType | ''>('')
  const { data, isError, hasNextPage, fetchNextPage, isFetchingNextPage } = useMoneyLog(asset.coin, type || undefined)
  const movements = data ? movementsOf(flattenPages(data.pages, (entry) => `${entry.id}:${entry.account}`)) : []
  const money = (units: string, kind: 'balance' | 'exact') => format.money(units, asset, kind, true)

  return (
    <section className="money-log" aria-labelledby="money-log-title">
      <div className="section-head">
        <h2 id="money-log-title" className="section-title">
          {t('assets.detail.history')}
        </h2>
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
      </div>
      {!data ? (
        <p className="muted-note">{isError ? t('assets.detail.unavailable') : t('common.loading')}</p>
      ) : movements.length === 0 ? (
        <EmptyState text={t('assets.detail.empty')} />
      ) : (
        <ul className="card money-log-list" data-testid="money-log">
          {movements.map((movement) => (
            <li key={movement.id} className="money-log-row" data-testid="money-log-row" data-type={movement.type}>
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
          ))}
        </ul>
      )}
      {hasNextPage && <LoadMore testId="money-log-more" loading={isFetchingNextPage} onLoad={() => fetchNextPage()} />}
    </section>
  )
}

/** Green in, red out of the available balance; money entering or leaving the locked balance is neither. */
const legClass = (leg: LedgerEntry) =>
  leg.account === 'locked' ? 'is-locked' : leg.amount.startsWith('-') ? 'is-out' : 'is-in'
