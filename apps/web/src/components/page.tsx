import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import './page.css'

/** A screen: its title (every screen has one: docs/product.md#screens) and its content. */
export function Page({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <section className="page">
      <h1 className="page-title" data-testid="page-title">
        {title}
      </h1>
      {children}
    </section>
  )
}

/** What a screen shows while it has nothing to show; `text` says what is missing, 'Nothing here yet' unless told. */
export function EmptyState({ text }: { text?: string }) {
  const { t } = useTranslation()
  return (
    <div className="empty-state" data-testid="empty-state">
      <svg viewBox="0 0 48 48" aria-hidden="true">
        <rect x="8" y="12" width="32" height="26" rx="5" />
        <path d="M8 22h10l3 4h6l3-4h10" />
      </svg>
      <p>{text ?? t('common.empty')}</p>
    </div>
  )
}
