import type { OutputRecord } from '@solpledge/contract/client'
import { useTranslation } from 'react-i18next'
import { formatDay } from '@/lib/format.ts'
import './output-table.css'
import { useFormat } from '@/lib/use-format.ts'

/** The output-detail table (docs/product.md#records): time, currency, amount and type of each settlement credit. */
export function OutputTable({ records, testId }: { records: readonly OutputRecord[]; testId: string }) {
  const { t, i18n } = useTranslation()
  const format = useFormat()
  return (
    <div className="card output-table-card">
      <table className="output-table" data-testid={testId}>
        <thead>
          <tr>
            <th scope="col">{t('output.time')}</th>
            <th scope="col">{t('output.currency')}</th>
            <th scope="col" className="output-amount">
              {t('output.amount')}
            </th>
            <th scope="col">{t('output.type')}</th>
          </tr>
        </thead>
        <tbody>
          {records.map((record) => (
            <tr key={record.id} data-testid="output-row" data-type={record.type} data-day={record.day}>
              <td className="output-day">
                <time dateTime={record.day}>{formatDay(record.day, i18n.resolvedLanguage)}</time>
              </td>
              <td data-testid="output-coin">{record.coin}</td>
              <td className="output-amount" data-testid="output-amount">
                {format.amount(record.amount, { symbol: record.coin, decimals: record.decimals }, 'output', true)}
              </td>
              <td>{t(`output.types.${record.type}`)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}
