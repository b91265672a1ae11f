import i18next from 'i18next'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { App, StartupError } from '@/app/app.tsx'
import { prefetchScreenData } from '@/app/prefetch.ts'
import { preloadScreen } from '@/app/router.tsx'
import { blockPinchZoom } from '@/lib/block-pinch-zoom.ts'
import { getConfig } from '@/lib/config.ts'
import { initI18n } from '@/lib/i18n.ts'
import { clearSession } from '@/lib/session.ts'
import '@/app/styles.css'

blockPinchZoom()
// Start-up (SPEC §4): the stored session is cleared; the wallet reconnects and the login runs again.
clearSession()
const inviteCode = new URLSearchParams(window.location.search).get('code') ?? ''

const element = document.getElementById('root')
if (!element) throw new Error('The page has no #root element')
const root = createRoot(element)

preloadScreen(window.location.pathname)
// index.html shows the loading overlay until the language's strings and the runtime config are here (in parallel);
// the screen's public data is on its way meanwhile (the language is chosen as soon as initI18n starts).
const loadingStrings = initI18n()
prefetchScreenData(window.location.pathname, i18next.language)
const [strings, config] = await Promise.allSettled([loadingStrings, getConfig()])
if (strings.status === 'rejected') console.error(strings.reason)
if (config.status === 'rejected') console.error(config.reason)
root.render(
  <StrictMode>
    {config.status === 'fulfilled' ? <App config={config.value} inviteCode={inviteCode} /> : <StartupError />}
  </StrictMode>,
)
