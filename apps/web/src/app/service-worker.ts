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
  const update = registerSW({
    immediate: true,
    onNeedRefresh: () => offerUpdate(() => void update(true)),
    onRegisteredSW: (_url, registration) => {
      if (!registration) return
      const check = () => {
        if (document.visibilityState === 'visible') registration.update().catch(() => {})
      }
      setInterval(check, CHECK_EVERY_MS)
      document.addEventListener('visibilitychange', check)
    },
    onRegisterError: (error: unknown) => console.error(error),
  })
}
