import { Suspense } from 'react'
import { ScrollRestoration, useLocation, useOutlet } from 'react-router'
import { ScreenShown } from './bootstrap.tsx'
import { BottomNav } from './bottom-nav.tsx'

/**
 * Phone layout: the current screen, faded and slid in on each navigation (SPEC §2's spring, drawn by CSS: see
 * .page-enter in styles.css), above the bottom navigation.
 */
export function Layout() {
  const { pathname } = useLocation()
  const outlet = useOutlet()
  return (
    <div className="app-shell">
      <main key={pathname} className="app-main page-enter">
        <Suspense fallback={<p className="route-loading">loading</p>}>
          {outlet}
          <ScreenShown />
        </Suspense>
      </main>
      <BottomNav />
      <ScrollRestoration />
    </div>
  )
}
