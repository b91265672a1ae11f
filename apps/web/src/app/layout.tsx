import { m } from 'motion/react'
import { Suspense } from 'react'
import { ScrollRestoration, useLocation, useOutlet } from 'react-router'
import { useResumePayments } from '../lib/payment/use-resume-payments.ts'
import { BottomNav } from './bottom-nav.tsx'

/** Page transition (SPEC §2). */
const spring = { type: 'spring', stiffness: 100, damping: 15 } as const

/**
 * Phone layout: the current screen, faded and slid in on each navigation, above the bottom navigation. On-chain
 * payments left unreported by a reload or a closed tab are reported once the user is signed in, whatever the screen.
 */
export function Layout() {
  useResumePayments()
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
