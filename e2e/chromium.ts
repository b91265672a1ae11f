import fs from 'node:fs'

/** The flags that work on these machines (docs: ENVIRONMENT; never a downloaded browser). */
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]

/** Debian's whole Chromium: only it offers to install a site (install.spec.ts). */
export const CHROMIUM = { executablePath: '/usr/bin/chromium', args: FLAGS }

const SHELL = '/usr/bin/chromium-headless-shell'

/**
 * The journeys' browser: Debian's headless shell of its Chromium (package chromium-headless-shell), the same engine
 * without the desktop browser around it. It took a third less CPU than the whole browser for the same journeys. Where
 * the package could not be installed, the whole browser runs them.
 */
export const HEADLESS_SHELL = fs.existsSync(SHELL) ? { executablePath: SHELL, args: FLAGS } : CHROMIUM
