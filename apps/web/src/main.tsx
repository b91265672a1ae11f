import i18next from 'i18next'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { App, StartupError } from '@/app/app.tsx'
import { prefetchScreenData } from '@/app/prefetch.ts'
import { preloadScreen } from '@/app/router.tsx'
import { reloadOnMissingChunk } from '@/lib/app-update.ts'
import { blockPinchZoom } from '@/lib/block-pinch-zoom.ts'
import { getConfig } from '@/lib/config.ts'
import { initI18n } from '@/lib/i18n.ts'
import '@/app/styles.css'

blockPinchZoom()
reloadOnMissingChunk()
// Start-up (docs/product.md#start-up): the wallet reconnects and the login runs again, or restores the stored session
// silently when the server still accepts it (features/auth/hooks/use-login.ts); until then nobody is signed in.
const { pathname, search } = window.location
const inviteCode = new URLSearchParams(search).get('code') ?? ''

const element = document.getElementById('root')
if (!element) throw new Error('The page has no #root element')
const root = createRoot(element)

// index.html shows the loading overlay until the language's strings and the runtime config are here, and the screen's
// chunk and public data for at most SCREEN_DATA_WAIT_MS (then the screen paints its skeletons, or the loading note
// until its chunk is here). The screen's chunk, its strings and its data are asked for at once, in parallel (the
// language is chosen as soon as initI18n starts; the config is in the page, so the data waits for no request; the
// server named the chunks in the page too).
const SCREEN_DATA_WAIT_MS = 1_000

/**
 * Renders the app once what its first screen needs is here. Not top-level await: this module is in the chunk every
 * screen imports, and a module still evaluating would hold back the import of the screen's chunk until it had
 * finished, so the first render could never have the screen's code and would draw the loading fallback first.
 */
async function start() {
  const screen = preloadScreen(pathname)
  const loadingStrings = initI18n()
  const loadingConfig = getConfig()
  const loadingData = loadingConfig.then((config) => prefetchScreenData(screen.pattern, i18next.language, config))
  const [strings, config] = await Promise.allSettled([loadingStrings, loadingConfig])
  if (strings.status === 'rejected') console.error(strings.reason)
  if (config.status === 'rejected') console.error(config.reason)
  await Promise.race([
    Promise.allSettled([loadingData, screen.loaded]),
    new Promise((done) => setTimeout(done, SCREEN_DATA_WAIT_MS)),
  ])
  root.render(
    <StrictMode>
      {config.status === 'fulfilled' ? (
        <App config={config.value} inviteCode={inviteCode} />
      ) : (
        // fetch rejects with a TypeError when the server cannot be reached at all.
        <StartupError offline={!navigator.onLine || config.reason instanceof TypeError} />
      )}
    </StrictMode>,
  )
}

start().catch(console.error)
