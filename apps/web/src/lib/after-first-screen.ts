import { createStore } from './store.ts'

/**
 * The first screen, then the rest (docs/architecture.md "First screen"): what the first screen does not need — the
 * live channel, the service worker, a wallet's layer — starts once that screen has rendered, the page has loaded and
 * the browser has a moment, so that none of it runs beside the first render, its layout and its paint on a phone's
 * busy main thread.
 */

const shown = createStore(false)

/** A screen has rendered its content, not its 'loading' fallback (app/bootstrap.tsx's ScreenShown). */
export const markScreenShown = () => shown.set(true)

/** The longest an idle callback waits for the browser to be idle (a page that never is still gets there). */
const IDLE_TIMEOUT_MS = 2_000

/** Runs `run` when the browser is idle (at once in a task of its own where it has no idle callbacks: Safari). */
function whenIdle(run: () => void): () => void {
  if (typeof requestIdleCallback === 'function') {
    const id = requestIdleCallback(run, { timeout: IDLE_TIMEOUT_MS })
    return () => cancelIdleCallback(id)
  }
  const timer = setTimeout(run)
  return () => clearTimeout(timer)
}

/** Runs `run` once the document's load event has fired. */
function whenLoaded(run: () => void): () => void {
  if (document.readyState === 'complete') {
    run()
    return () => {}
  }
  window.addEventListener('load', run, { once: true })
  return () => window.removeEventListener('load', run)
}

/**
 * Calls `run` once, after the first screen: it has rendered, the page's load event has fired, and the browser is
 * idle. Returns a function that cancels it.
 */
export function afterFirstScreen(run: () => void): () => void {
  let cancel = () => {}
  const loadedThenIdle = () => {
    cancel = whenLoaded(() => {
      cancel = whenIdle(run)
    })
  }
  if (shown.get()) loadedThenIdle()
  else {
    const unsubscribe = shown.subscribe(() => {
      if (!shown.get()) return
      unsubscribe()
      loadedThenIdle()
    })
    cancel = unsubscribe
  }
  return () => cancel()
}

/** Resolves after the first screen (afterFirstScreen). */
export const firstScreenDone = () => new Promise<void>((resolve) => afterFirstScreen(resolve))
