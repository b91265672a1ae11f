import { defineConfig } from '@playwright/test'
import { HEADLESS_SHELL } from './chromium.ts'

/**
 * E2E journeys in Debian's Chromium (its headless shell: chromium.ts; never a downloaded browser) at a phone viewport,
 * against the real server, a fresh PGlite database and the local chain, all started by global-setup.ts. Journeys that
 * change what the others rely on (the console's configuration, the one market's price, settled days ahead) run on a
 * server of their own (`test.use({ ownServer })`, fixtures.ts), so every file can run at the same time as any other.
 */
/** The files that say `test.use({ ownServer })`. */
const OWN_SERVER = [
  '**/admin.spec.ts',
  '**/four-eyes.spec.ts',
  '**/trade.spec.ts',
  '**/numbers.spec.ts',
  '**/live.spec.ts',
  '**/failover.spec.ts',
  '**/campaign.spec.ts',
]

export default defineConfig({
  testDir: '.',
  testMatch: '**/*.spec.ts',
  // The journeys on a server of their own first: they are the longest (the console's run one after the other), and
  // Playwright otherwise gives the workers every file of the shared server before starting a worker for another.
  projects: [
    { name: 'own-server', testMatch: OWN_SERVER },
    { name: 'shared-server', testIgnore: OWN_SERVER },
  ],
  outputDir: '../test-results/e2e',
  globalSetup: './global-setup.ts',
  fullyParallel: false,
  // Two more than CI's 2 cores: a journey waits on the chain, the server and its timers much of its time, and with three
  // workers the stage kept about one core busy (docs/benchmarks.md).
  workers: 4,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 15_000 },
  reporter: [['list'], ['json']],
  use: {
    viewport: { width: 390, height: 844 },
    isMobile: true,
    hasTouch: true,
    // One device pixel per CSS pixel: layout, hit targets and every assertion are in CSS pixels, and a phone's 2–3×
    // density quadrupled or more what Chromium's software compositor draws (the stage's largest CPU cost, with the
    // screenshot of every passing test: 489 → 393 s alone, docs/benchmarks.md).
    deviceScaleFactor: 1,
    locale: 'en-US',
    screenshot: 'only-on-failure',
    // No trace: recording one for every journey (to keep it for failures) took a third of the stage's CPU; a failure
    // shows its error, its screenshot and the journey's own screenshots (snap in fixtures.ts).
    trace: 'off',
    launchOptions: HEADLESS_SHELL,
    // The app registers a service worker after its first paint; a controlled page's requests would pass it, out of
    // page.route's reach. Journeys run without it, except install.spec.ts, which is about it.
    serviceWorkers: 'block',
    // A visitor who asked for reduced motion (the app honours it: no page-enter fade, skeleton pulse or banner
    // auto-advance): an animation redraws the screen every frame, and the journeys check what is shown, not how it moves.
    reducedMotion: 'reduce',
  },
})
