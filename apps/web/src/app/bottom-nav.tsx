import { useTranslation } from 'react-i18next'
import { NavLink } from 'react-router'

/** Icon outlines (24×24, stroked). */
const items = [
  { to: '/', key: 'home', icon: 'M3 11l9-7 9 7v9a1 1 0 0 1-1 1h-5v-6H9v6H4a1 1 0 0 1-1-1z' },
  { to: '/pledge', key: 'pledge', icon: 'M12 3l8 4v5c0 4.5-3.4 8.3-8 9-4.6-.7-8-4.5-8-9V7zM9 12l2 2 4-4' },
  { to: '/node', key: 'node', icon: 'M12 2l8.5 5v10L12 22l-8.5-5V7zM12 22V12M3.5 7L12 12l8.5-5' },
  {
    to: '/team',
    key: 'team',
    icon: 'M16 21v-2a4 4 0 0 0-4-4H6a4 4 0 0 0-4 4v2M9 11a4 4 0 1 0 0-8 4 4 0 0 0 0 8M22 21v-2a4 4 0 0 0-3-3.9M16 3.1a4 4 0 0 1 0 7.8',
  },
  { to: '/assets', key: 'assets', icon: 'M3 7h18v13H3zM3 7l3-4h12l3 4M16 13.5h2' },
] as const

export function BottomNav() {
  const { t } = useTranslation()
  return (
    <nav className="bottom-nav" data-testid="bottom-nav">
      {items.map(({ to, key, icon }) => (
        <NavLink key={key} to={to} end={to === '/'}>
          <svg viewBox="0 0 24 24" aria-hidden="true">
            <path d={icon} />
          </svg>
          <span>{t(`nav.${key}`)}</span>
        </NavLink>
      ))}
    </nav>
  )
}
