import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { BackLink } from '@/components/back-link.tsx'
import { EmptyState, Page } from '@/components/page.tsx'
import { formatDateTime } from '@/lib/format.ts'
import { flattenNotices, useNotices } from '../api/get-notices.ts'
import { EconomicNotices } from './economic-notices.tsx'
import { MoreOnScroll } from './more-on-scroll.tsx'
import './notice.css'

/**
 * /notice: the announced changes of what the platform pays or takes, then the published notices, newest first; the
 * next page loads when the end of the list scrolls into view.
 */
export function NoticeListScreen() {
  const { t, i18n } = useTranslation()
  const notices = useNotices()
  const items = flattenNotices(notices.data?.pages ?? [])

  let content: ReactNode
  if (notices.isPending) content = <p className="notice-loading">{t('common.loading')}</p>
  else if (items.length === 0)
    content = <EmptyState text={notices.isError ? t('notice.unavailable') : t('notice.empty')} />
  else
    content = (
      <ul className="notice-list" data-testid="notice-list">
        {items.map((notice) => (
          <li key={notice.id}>
            <Link
              className="card notice-item"
              to={`/notice/detail/${notice.id}`}
              data-testid="notice-item"
              data-id={notice.id}
            >
              <span className="notice-item-title" lang={notice.lang}>
                {notice.title}
              </span>
              <time className="notice-time" dateTime={notice.published_at}>
                {formatDateTime(notice.published_at, i18n.language)}
              </time>
            </Link>
          </li>
        ))}
      </ul>
    )

  return (
    <Page title={t('screens.notice')}>
      <BackLink to="/" />
      <EconomicNotices />
      {content}
      {notices.hasNextPage && (
        <MoreOnScroll
          testId="notice-more"
          loading={notices.isFetchingNextPage}
          onMore={() => {
            if (!notices.isFetchingNextPage) notices.fetchNextPage().catch(console.error)
          }}
        />
      )}
    </Page>
  )
}
