import { Suspense, useLayoutEffect, useRef } from 'react'
import { useLocation, useNavigationType, useOutlet } from 'react-router'
import { LiveStatusNote } from '@/components/live-status.tsx'
import { usersChannel } from '@/lib/live/use-live.ts'
import { ScreenShown } from './bootstrap.tsx'
import { BottomNav } from './bottom-nav.tsx'

/**
 * Phone layout: the current screen, faded and slid in on each navigation (the spring of
 * docs/product.md#shared-elements, drawn by CSS: see .page-enter in styles.css), above the bottom navigation. The
 * screen the app opens on has no screen to come from: it shows at once in place of the loading overlay, its text
 * painted in full from the first frame (a browser counts text drawn at opacity 0 as not painted, so an entrance there
 * would leave the page's largest paint to chance).
 */
export function Layout() {
  const { pathname, key } = useLocation()
  const outlet = useOutlet()
  const opened = useRef(key)
  useScrollMemory(key)
  return (
    <div className="app-shell">
      <main key={pathname} className={key === opened.current ? 'app-main' : 'app-main page-enter'}>
        <Suspense fallback={<p className="route-loading">loading</p>}>
          {outlet}
          <ScreenShown />
        </Suspense>
      </main>
      <BottomNav />
      <LiveStatusNote channel={usersChannel()} />
    </div>
  )
}

/** Where each history entry was scrolled to, by its location key. */
const scrolled = new Map<string, number>()

/**
 * A new page starts at the top; back and forward return to where the page was left (what React Router's
 * <ScrollRestoration> does for its data router). The position is kept as the user scrolls, so the next page's shorter
 * content cannot clamp it first.
 */
function useScrollMemory(key: string) {
  const type = useNavigationType()
  useLayoutEffect(() => {
    window.history.scrollRestoration = 'manual'
  }, [])
  useLayoutEffect(() => {
    window.scrollTo(0, type === 'POP' ? (scrolled.get(key) ?? 0) : 0)
    const keep = () => scrolled.set(key, window.scrollY)
    window.addEventListener('scroll', keep, { passive: true })
    return () => window.removeEventListener('scroll', keep)
  }, [key, type])
}
