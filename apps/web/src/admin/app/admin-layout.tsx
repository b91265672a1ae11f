import { type ReactNode, Suspense } from 'react'
import { useTranslation } from 'react-i18next'
import { NavLink } from 'react-router'
import { consoleChannel } from '@/admin/lib/live.ts'
import type { AdminSession } from '@/admin/lib/session.ts'
import { LanguageSwitcher } from '@/components/language-switcher.tsx'
import { LiveStatusNote } from '@/components/live-status.tsx'
import { shorten } from '@/lib/shorten.ts'

/** The console's areas in navigation order, the first its start screen (docs/admin-console.md#screens). */
const SECTIONS = ['operations', 'withdrawals', 'users', 'config', 'content', 'audit'] as const
type Section = (typeof SECTIONS)[number]

export const sectionPath = (section: Section) => (section === 'operations' ? '/admin' : `/admin/${section}`)

interface AdminLayoutProps {
  session: AdminSession
  onSignOut: () => void
  children: ReactNode
}

/**
 * The console's frame: a header with the operator's address, role and sign-out, the areas' navigation (a side bar on
 * a desktop, a scrolling strip on a phone) and the current area.
 */
export function AdminLayout({ session, onSignOut, children }: AdminLayoutProps) {
  const { t } = useTranslation('admin')
  return (
    <div className="admin-shell">
      <header className="admin-header">
        <a className="admin-brand" href="/admin">
          {t('title')}
        </a>
        <span className="admin-who">
          <span className="admin-address" title={session.address} data-testid="admin-address">
            {shorten(session.address)}
          </span>
          <span className="admin-role" data-testid="admin-role" data-role={session.role}>
            {t(`roles.${session.role}`)}
          </span>
        </span>
        <button type="button" className="admin-button admin-sign-out" data-testid="admin-sign-out" onClick={onSignOut}>
          {t('signOut')}
        </button>
      </header>
      <nav className="admin-nav" aria-label={t('navigation')} data-testid="admin-nav">
        {SECTIONS.map((section) => (
          <NavLink key={section} to={sectionPath(section)} end data-testid={`admin-nav-${section}`}>
            {t(`sections.${section}`)}
          </NavLink>
        ))}
        <a href="/" className="admin-nav-app">
          {t('backToApp')}
        </a>
      </nav>
      <main className="admin-main">
        <Suspense fallback={<p className="muted-note">{t('loading')}</p>}>{children}</Suspense>
        <LiveStatusNote channel={consoleChannel()} />
      </main>
      <footer className="admin-footer">
        <LanguageSwitcher />
      </footer>
    </div>
  )
}
