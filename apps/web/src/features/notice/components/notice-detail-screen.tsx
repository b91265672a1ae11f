import { Code } from '@solpledge/contract/client'
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { Link, useParams } from 'react-router'
import { EmptyState, Page } from '@/components/page.tsx'
import { ApiError } from '@/lib/api-client.ts'
import { formatDateTime } from '@/lib/format.ts'
import { isNoticeId, useNotice } from '../api/get-notice.ts'
import { RichText } from './rich-text.tsx'
import './notice.css'

/**
 * /notice/detail/:id: the notice's title, time and rich-text body, each in the interface language when translated (the
 * server falls back to en for the title and the body independently), with a note when either is not.
 */
export function NoticeDetailScreen() {
  const { t, i18n } = useTranslation()
  const { id } = useParams()
  const notice = useNotice(id)
  const missing = !isNoticeId(id) || (notice.error instanceof ApiError && notice.error.code === Code.NOT_FOUND)

  let content: ReactNode
  if (missing) content = <EmptyState text={t('notice.notFound')} />
  else if (notice.data) {
    const { title, body, lang, body_lang, published_at } = notice.data
    content = (
      <article className="card notice-article" data-testid="notice-detail" data-id={notice.data.id} lang={lang}>
        <h2 className="notice-title" data-testid="notice-title">
          {title}
        </h2>
        <time className="notice-time" dateTime={published_at}>
          {formatDateTime(published_at, i18n.language)}
        </time>
        {(lang !== i18n.language || body_lang !== i18n.language) && (
          <p className="muted-note" data-testid="notice-fallback" lang={i18n.language}>
            {t('notice.fallback')}
          </p>
        )}
        <RichText className="notice-body" html={body} lang={body_lang} />
      </article>
    )
  } else if (notice.isError) content = <EmptyState text={t('notice.detailUnavailable')} />
  else content = <p className="notice-loading">{t('common.loading')}</p>

  return (
    <Page title={t('screens.noticeDetail')}>
      <Link className="notice-back" to="/notice" data-testid="notice-back">
        <svg viewBox="0 0 24 24" aria-hidden="true">
          <path d="M15 18l-6-6 6-6" />
        </svg>
        {t('notice.back')}
      </Link>
      {content}
    </Page>
  )
}
