import { useTranslation } from 'react-i18next'
import { Link, useLocation } from 'react-router'

/**
 * The tabs, each with its icon outline (24×24, stroked) and the screens below it that are reached from it and keep it
 * highlighted (`also`): the money screens Home links to, the ranking the team page links to.
 */
const items = [
  {
    to: '/',
    key: 'home',
    also: ['/finance', '/swap', '/quick-trade', '/notice', '/campaign'],
    icon: 'M3 11l9-7 9 7v9a1 1 0 0 1-1 1h-5v-6H9v6H4a1 1 0 0 1-1-1z',
  },
  { to: '/pledge', key: 'pledge', icon: 'M12 3l8 4v5c0 4.5-3.4 8.3-8 9-4.6-.7-8-4.5-8-9V7zM9 12l2 2 4-4' },
  { to: '/node', key: 'node', icon: 'M12 2l8.5 5v10L12 22l-8.5-5V7zM12 22V12M3.5 7L12 12l8.5-5' },
  {
    to: '/team',
    key: 'team',
    also: ['/rank'],
    icon: 'M16 21v-2a4 4 0 0 0-4-4H6a4 4 0 0 0-4 4v2M9 11a4 4 0 1 0 0-8 4 4 0 0 0 0 8M22 21v-2a4 4 0 0 0-3-3.9M16 3.1a4 4 0 0 1 0 7.8',
  },
  { to: '/assets', key: 'assets', icon: 'M3 7h18v13H3zM3 7l3-4h12l3 4M16 13.5h2' },
] as const

/** Whether `pathname` is `base` or below it (routes match without regard to case). */
const within = (pathname: string, base: string) =>
  pathname === base || (base !== '/' && pathname.startsWith(`${base}/`))

/**
 * Which tab a path belongs to: its own ('page'), one it is reached from ('true': a screen of that section), or none.
 * Exported for its test.
 */
export function tabState(
  pathname: string,
  item: { to: string; also?: readonly string[] },
): 'page' | 'true' | undefined {
  const path = pathname.toLowerCase().replace(/(.)\/+$/, '$1')
  if (path === item.to) return 'page'
  if (within(path, item.to) || item.also?.some((base) => within(path, base))) return 'true'
  return undefined
}

export function BottomNav() {
  const { t } = useTranslation()
  const { pathname } = useLocation()
  return (
    <nav className="bottom-nav" data-testid="bottom-nav">
      {items.map((item) => {
        const current = tabState(pathname, item)
        return (
          <Link
            key={item.key}
            to={item.to}
            className={current ? 'active' : undefined}
            aria-current={current}
            data-testid={`nav-${item.key}`}
          >
            <svg viewBox="0 0 24 24" aria-hidden="true">
              <path d={item.icon} />
            </svg>
            <span>{t(`nav.${item.key}`)}</span>
          </Link>
        )
      })}
    </nav>
  )
}
