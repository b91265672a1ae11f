import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { App } from './app/app.tsx'
import { loadApp } from './app/bootstrap.ts'
import { blockPinchZoom } from './lib/block-pinch-zoom.ts'
import { initI18n } from './lib/i18n.ts'
import { clearSession } from './lib/session.ts'
import './app/styles.css'

blockPinchZoom()
initI18n()
// Start-up (SPEC §4): the stored session is cleared; the wallet reconnects and the login runs again.
clearSession()
const inviteCode = new URLSearchParams(window.location.search).get('code') ?? ''

const root = document.getElementById('root')
if (!root) throw new Error('The page has no #root element')
createRoot(root).render(
  <StrictMode>
    <App app={loadApp()} inviteCode={inviteCode} />
  </StrictMode>,
)
