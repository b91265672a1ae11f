import { defineConfig } from '@playwright/test'

/**
 * E2E journeys in Debian's Chromium (never a downloaded browser) at a phone viewport, against the real server,
 * a fresh PGlite database and the local chain, all started by global-setup.ts.
 *
 * The server has one market, and its trades feed the valuation price every other journey computes with (the 0.5 USDT
 * reference while trading is thin, as the trade journey's few PLG are): the trade journey runs after all of them, as
 * the project `market`.
 */
export default defineConfig({
  testDir: '.',
  testMatch: '**/*.spec.ts',
  projects: [
    { name: 'app', testIgnore: ['**/trade.spec.ts', '**/numbers.spec.ts'] },
    // numbers.spec.ts settles days ahead, which journeys that settle their own positions must not meet.
    { name: 'market', testMatch: ['**/trade.spec.ts', '**/numbers.spec.ts'], dependencies: ['app'] },
  ],
  outputDir: '../test-results/e2e',
  globalSetup: './global-setup.ts',
  fullyParallel: false,
  workers: 2,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 15_000 },
  reporter: [['list'], ['json']],
  use: {
    viewport: { width: 390, height: 844 },
    isMobile: true,
    hasTouch: true,
    deviceScaleFactor: 2,
    locale: 'en-US',
    screenshot: 'on',
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
})
