import { useTranslation } from 'react-i18next'
import { formatDateTime } from '@/lib/format.ts'
import { useFormat } from '@/lib/use-format.ts'
import { useRateHistory } from '../api/get-rate-history.ts'

/**
 * The output rate of each staking period (a multiple, ×1.06) and finance term (the term's total, 1.5 %) since the
 * configuration first set it: one table per product, newest change first, from the business configuration's applied
 * versions (`/invest/invest_pledge/rate_history`).
 */
export function RateHistory() {
  const { t, i18n } = useTranslation()
  const format = useFormat()
  const rates = useRateHistory()
  const products = rates.data?.products ?? []
  const note = rates.data
    ? products.length === 0
      ? t('history.empty')
      : null
    : rates.isError
      ? t('history.unavailable')
      : t('common.loading')
  return (
    <section className="card history-chart" data-testid="history-rates" aria-labelledby="history-rates-title">
      <h2 id="history-rates-title">{t('history.rates')}</h2>
      <p className="muted">{t('history.ratesHelp')}</p>
      {note && <p className="chart-note">{note}</p>}
      <div className="history-table">
        {products.map((product) => (
          <table key={`${product.kind}-${product.days}`} data-testid={`history-rates-${product.kind}-${product.days}`}>
            <caption>
              {t(product.kind === 'stake' ? 'history.rateStake' : 'history.rateFinance', { count: product.days })}
            </caption>
            <thead>
              <tr>
                <th scope="col">{t('history.rateFrom')}</th>
                <th scope="col">{t(product.kind === 'stake' ? 'history.rateMultiple' : 'history.rateTotal')}</th>
              </tr>
            </thead>
            <tbody>
              {[...product.changes].reverse().map((change) => (
                <tr key={change.from}>
                  <td>{formatDateTime(change.from, i18n.resolvedLanguage)}</td>
                  <td className="num">
                    {change.output_bps === null
                      ? t('history.rateWithdrawn')
                      : product.kind === 'stake'
                        ? format.multiple(change.output_bps)
                        : format.percent(change.output_bps)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        ))}
      </div>
    </section>
  )
}
