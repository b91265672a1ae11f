import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import './home-links.css'

/** Icon outlines (24×24, stroked). */
const links = [
  { to: '/pledge', key: 'pledge', icon: 'M12 3l8 4v5c0 4.5-3.4 8.3-8 9-4.6-.7-8-4.5-8-9V7zM9 12l2 2 4-4' },
  { to: '/finance', key: 'finance', icon: 'M4 20V10M10 20V4M16 20v-7M22 20H2' },
  { to: '/node', key: 'node', icon: 'M12 2l8.5 5v10L12 22l-8.5-5V7zM12 22V12M3.5 7L12 12l8.5-5' },
  { to: '/assets', key: 'assets', icon: 'M3 7h18v13H3zM3 7l3-4h12l3 4M16 13.5h2' },
  { to: '/quick-trade/buy', key: 'trade', icon: 'M3 17l6-6 4 4 8-8M15 7h6v6' },
  { to: '/swap', key: 'swap', icon: 'M7 4v16M7 20l-4-4M7 20l4-4M17 20V4M17 4l-4 4M17 4l4 4' },
  {
    to: '/rank',
    key: 'rank',
    icon: 'M8 21h8M12 17v4M7 4h10v5a5 5 0 0 1-10 0zM7 6H4v2a3 3 0 0 0 3 3M17 6h3v2a3 3 0 0 1-3 3',
  },
] as const

/** Entry points to the money screens (staking, finance, nodes, assets, quick trade and swap) and the ranking. */
export function HomeLinks() {
  const { t } = useTranslation()
  return (
    <nav className="home-links" aria-label={t('home.links.label')}>
      {links.map(({ to, key, icon }) => (
        <Link key={key} to={to} className="card home-link" data-testid={`home-link-${key}`}>
          <svg viewBox="0 0 24 24" aria-hidden="true">
            <path d={icon} />
          </svg>
          <span className="home-link-title">{t(`home.links.${key}.title`)}</span>
          <span className="home-link-text">{t(`home.links.${key}.text`)}</span>
        </Link>
      ))}
    </nav>
  )
}
