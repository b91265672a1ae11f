import { useTranslation } from 'react-i18next'
import { formatBps, formatDateTime, formatUnits } from '@/lib/format.ts'
import { type EconomicNotice, useEconomicNotices } from '../api/get-economic-notices.ts'

type Item = EconomicNotice['items'][number]
type LooseT = (key: string, options?: Record<string, unknown>) => string

/**
 * The changes of what the platform pays or takes, announced before they apply (docs/economics.md): each with when it
 * takes effect (or took effect) and every value before → after in its unit, through the app's number formats.
 */
export function EconomicNotices() {
  const { t: typed, i18n } = useTranslation()
  const t = typed as unknown as LooseT
  const notices = useEconomicNotices()
  if (!notices.data || notices.data.length === 0) return null
  const language = i18n.resolvedLanguage
  const value = (item: Item, v: Item['before']) => {
    if (v === null) return t('notice.changes.none')
    if (typeof v === 'boolean') return t(v ? 'notice.changes.on' : 'notice.changes.off')
    const { unit } = item
    if (unit.kind === 'amount') return `${formatUnits(String(v), unit.decimals, language)} ${unit.coin}`
    if (unit.kind === 'rate') return formatBps(Number(v), language)
    return /^-?\d+$/.test(String(v)) ? formatUnits(String(v), 0, language) : String(v)
  }
  return (
    <section className="card notice-changes" data-testid="economic-notices" aria-labelledby="economic-notices-title">
      <h2 id="economic-notices-title" className="notice-changes-title">
        {t('notice.changes.title')}
      </h2>
      <p className="notice-changes-text">{t('notice.changes.text')}</p>
      <ul className="notice-changes-list">
        {notices.data.map((notice) => (
          <li key={notice.id} data-testid="economic-notice" data-id={notice.id} data-status={notice.status}>
            <time className="notice-time" dateTime={notice.effective_at} data-testid="economic-notice-when">
              {t(`notice.changes.${notice.status}`, { at: formatDateTime(notice.effective_at, language) })}
            </time>
            <ul className="notice-changes-items">
              {notice.items.map((item) => (
                <li key={`${item.field}:${item.row ?? ''}`} data-testid="economic-notice-item" data-field={item.field}>
                  {t(`notice.changes.fields.${item.field}`, { row: item.row ?? '', defaultValue: item.field })}:{' '}
                  {value(item, item.before)} → <strong>{value(item, item.after)}</strong>
                </li>
              ))}
            </ul>
          </li>
        ))}
      </ul>
    </section>
  )
}
