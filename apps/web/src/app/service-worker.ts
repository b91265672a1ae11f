import { registerSW } from 'virtual:pwa-register'
import { offerUpdate } from '@/lib/app-update.ts'

/** How often an open page asks whether a new version was deployed (and each time it is shown again). */
const CHECK_EVERY_MS = 60 * 60_000

/**
 * Registers the service worker (src/sw.ts; a chunk of its own, loaded after the first paint). A new version installs
 * in the background and waits: the page offers it ("A new version is ready — Reload") and only the user's Reload
 * activates it and reloads onto it.
 */
export function registerServiceWorker() {
  if (!('serviceWorker' in navigator)) return
  let registered: ServiceWorkerRegistration | undefined
  const update = registerSW({
    immediate: true,
    // A waiting worker is activated, then the page reloads onto it; a page the old worker did not control (the first
    // visit) had the new one activated at once: it only reloads.
    onNeedRefresh: () => offerUpdate(() => (registered?.waiting ? void update(true) : window.location.reload())),
    onRegisteredSW: (_url, registration) => {
      if (!registration) return
      registered = registration
      const check = () => {
        if (document.visibilityState === 'visible') registration.update().catch(() => {})
      }
      setInterval(check, CHECK_EVERY_MS)
      document.addEventListener('visibilitychange', check)
    },
    onRegisterError: (error: unknown) => console.error(error),
  })
}
