import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { useNotices } from '../api/get-notices.ts'
import { EventNoticeDialog } from './event-notice-dialog.tsx'
import './home-notices.css'

const MEGAPHONE = 'M3 10v4a1 1 0 0 0 1 1h3l5 4V5L7 9H4a1 1 0 0 0-1 1zM16 8.5a4 4 0 0 1 0 7M18.5 6a7.5 7.5 0 0 1 0 12'

/**
 * The home notice strip: the newest notice (opens it) and the way to all notices, plus the event notice dialog when
 * the operator has flagged one.
 */
export function NoticeStrip() {
  const { t } = useTranslation()
  const notices = useNotices()
  const first = notices.data?.pages[0]
  const latest = first?.list[0]
  return (
    <div className="card notice-strip" data-testid="notice-strip">
      <svg viewBox="0 0 24 24" aria-hidden="true">
        <path d={MEGAPHONE} />
      </svg>
      {latest ? (
        // Keyed: Preact (preact/compat) would otherwise reuse the "more" link's element for this one when it appears.
        <Link
          key="latest"
          className="notice-strip-title"
          to={`/notice/detail/${latest.id}`}
          data-testid="notice-strip-item"
          data-id={latest.id}
          aria-label={`${t('notice.strip')}: ${latest.title}`}
          lang={latest.lang}
        >
          {latest.title}
        </Link>
      ) : (
        <span className="notice-strip-title notice-strip-empty">
          {notices.isPending ? t('common.loading') : notices.isError ? t('notice.unavailable') : t('notice.empty')}
        </span>
      )}
      <Link className="notice-strip-more" to="/notice" data-testid="notice-strip-more">
        {t('notice.more')}
      </Link>
      <EventNoticeDialog eventId={first?.event?.id ?? null} />
    </div>
  )
}
