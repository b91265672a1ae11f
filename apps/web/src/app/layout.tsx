import { m } from 'motion/react'
import { Suspense } from 'react'
import { ScrollRestoration, useLocation, useOutlet } from 'react-router'
import { BottomNav } from './bottom-nav.tsx'

/** Page transition (SPEC §2). */
const spring = { type: 'spring', stiffness: 100, damping: 15 } as const

/** Phone layout: the current screen, faded and slid in on each navigation, above the bottom navigation. */
export function Layout() {
  const { pathname } = useLocation()
  const outlet = useOutlet()
  return (
    <div className="app-shell">
      <m.main
        key={pathname}
        className="app-main"
        initial={{ opacity: 0, x: 24 }}
        animate={{ opacity: 1, x: 0 }}
        transition={spring}
      >
        <Suspense fallback={<p className="route-loading">loading</p>}>{outlet}</Suspense>
      </m.main>
      <BottomNav />
      <ScrollRestoration />
    </div>
  )
}
