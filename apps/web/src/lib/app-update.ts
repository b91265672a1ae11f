import { createStore } from './store.ts'

/**
 * A new version of the app is installed and waiting (the service worker found it): `apply` reloads onto it. Shown as
 * "A new version is ready — Reload" (components/update-prompt.tsx), never applied without the user.
 */
const waiting = createStore<(() => void) | null>(null)

export const offerUpdate = (apply: () => void) => waiting.set(apply)
export const useWaitingUpdate = waiting.use

/** sessionStorage: when the page last reloaded because one of its chunks was gone. */
const RELOADED_AT_KEY = 'solpledge.reloadedForUpdate'
/** A chunk still missing this soon after that reload is not a deploy: the error is the screen's to show. */
const RELOAD_AGAIN_AFTER_MS = 60_000

/**
 * A chunk of the version this page started with is gone (`vite:preloadError`: a new version was deployed and the old
 * files removed): reload, once, onto the new version instead of failing the screen.
 */
export function reloadOnMissingChunk() {
  window.addEventListener('vite:preloadError', (event) => {
    const last = Number(sessionStorage.getItem(RELOADED_AT_KEY) ?? 0)
    if (Date.now() - last < RELOAD_AGAIN_AFTER_MS) return
    sessionStorage.setItem(RELOADED_AT_KEY, String(Date.now()))
    event.preventDefault()
    window.location.reload()
  })
}
