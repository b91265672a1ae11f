import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { chromium, type Page } from '@playwright/test'
// @ts-expect-error plain ESM helpers shared with the npm scripts
import { freePort, root } from '../scripts/lib.mjs'
import { CHROMIUM } from './chromium.ts'
import { copyBuild, nextBuild } from './deploy.ts'
import { expect, quiet, snap, test } from './fixtures.ts'
import { startServer } from './server.ts'

// The service worker is what these journeys are about (the others block it: playwright.config.ts).
test.use({ serviceWorkers: 'allow' })

/** Resolves once the page's service worker is active. */
const workerActive = (page: Page) =>
  page.waitForFunction(async () => (await navigator.serviceWorker.ready).active?.state === 'activated')

/**
 * Resolves once the page loading now has loaded what it loads after its first paint: the service worker's
 * registration and the wallet layer (the demo wallet's badge). A deploy restarts the server: a lazy chunk asked for
 * meanwhile would fail and reload the page into the offline screen.
 */
async function loadedAfterPaint(page: Page) {
  await page.waitForResponse(/\/assets\/service-worker-[\w-]+\.js$/)
  await expect(page.getByTestId('demo-wallet-toggle')).toBeVisible()
  // And what those import in turn (the registration's workbox-window chunk comes after its own chunk): on a loaded
  // machine the page was once found reloaded into the offline screen after a deploy that followed these two at once.
  await quiet(page, 1_000)
}

/** A visitor who signed out before: nothing connects by itself (no demo wallet login, no bind dialog). */
const signedOutVisitor = (page: Page) => page.addInitScript(() => localStorage.setItem('signedOut', '1'))

test.describe('the installable app', () => {
  test('a valid manifest, the install prompt, the worker controlling the page, the offline screen', async ({
    baseURL,
  }, testInfo) => {
    // A browser profile of its own: Chromium installs nothing from an incognito context (Playwright's are). It offers
    // to install a site only after some use of it: the flag waives that, so that beforeinstallprompt says whether the
    // site meets the installability criteria.
    const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'solpledge-profile-'))
    const { use } = testInfo.project
    const context = await chromium.launchPersistentContext(profile, {
      ...CHROMIUM,
      args: [...CHROMIUM.args, '--bypass-app-banner-engagement-checks'],
      baseURL,
      viewport: use.viewport,
      isMobile: use.isMobile,
      hasTouch: use.hasTouch,
      locale: use.locale,
      serviceWorkers: 'allow',
    })
    try {
      const page = context.pages()[0] ?? (await context.newPage())
      await signedOutVisitor(page)
      await page.addInitScript(() => {
        window.addEventListener('beforeinstallprompt', (event) => {
          event.preventDefault()
          Object.assign(window, { e2eInstallPrompt: true })
        })
      })
      await page.goto('/')
      const cdp = await context.newCDPSession(page)
      const { errors, data } = await cdp.send('Page.getAppManifest')
      expect(errors).toEqual([])
      const manifest = JSON.parse(data ?? '{}')
      expect(manifest).toMatchObject({
        name: 'solpledge',
        short_name: 'solpledge',
        start_url: '/',
        display: 'standalone',
        background_color: '#0b0d17',
        theme_color: '#0b0d17',
      })
      expect(manifest.icons).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ sizes: '192x192', type: 'image/png', purpose: 'any' }),
          expect.objectContaining({ sizes: '512x512', type: 'image/png', purpose: 'any' }),
          expect.objectContaining({ sizes: '512x512', type: 'image/png', purpose: 'maskable' }),
        ]),
      )
      for (const icon of manifest.icons as { src: string }[])
        expect((await page.request.get(icon.src)).headers()['content-type']).toBe('image/png')

      // Registered after the first paint; then the browser finds the site installable.
      await workerActive(page)
      await expect.poll(async () => (await cdp.send('Page.getInstallabilityErrors')).installabilityErrors).toEqual([])
      await expect.poll(() => page.evaluate(() => 'e2eInstallPrompt' in window)).toBe(true)

      // A reload is under the worker's control.
      await page.reload()
      await expect(page.getByTestId('page-title')).toBeVisible()
      expect(await page.evaluate(() => navigator.serviceWorker.controller?.scriptURL)).toMatch(/\/sw\.js$/)

      // Offline, a reload shows the offline screen, in the user's language.
      await page.evaluate(() => localStorage.setItem('i18nextLng', 'zh'))
      await context.setOffline(true)
      await page.reload()
      await expect(page.getByTestId('offline')).toContainText('您已离线')
      await snap(page, testInfo, 'offline')
      await context.setOffline(false)
      await page.getByTestId('offline').getByRole('button').click()
      await expect(page.getByTestId('page-title')).toBeVisible()
    } finally {
      await context.close()
      fs.rmSync(profile, { recursive: true, force: true })
    }
  })

  test('a new version deployed while the page is open: the update prompt, and a missing chunk reloads once onto it', async ({
    page,
  }, testInfo) => {
    test.setTimeout(240_000)
    const rpc = [process.env.E2E_RPC_URL as string, process.env.E2E_WS_URL as string] as const
    // The same port (a service worker belongs to its origin) and the same data before and after each deploy.
    const env = { PORT: String(await freePort()), DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'solpledge-e2e-')) }
    const first = copyBuild(path.join(root, 'apps/web/dist'))
    const second = nextBuild(first)
    const third = nextBuild(second)
    let server = await startServer(...rpc, { ...env, WEB_DIST: first })
    /** The deploy of a build: the server restarted on it, the page still on the version it loaded. */
    const deploy = async (build: string) => {
      await server.stop()
      server = await startServer(...rpc, { ...env, WEB_DIST: build })
    }
    const entryOf = () => page.evaluate(() => document.querySelector('script[type="module"]')?.getAttribute('src'))
    const waiting = () =>
      page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.waiting?.state ?? null)
    try {
      await signedOutVisitor(page)
      await page.goto(`${server.url}/`)
      await workerActive(page)
      // A returning visitor: the worker controls the page.
      let loaded = loadedAfterPaint(page)
      await page.reload()
      await expect(page.getByTestId('page-title')).toBeVisible()
      await loaded
      expect(await page.evaluate(() => navigator.serviceWorker.controller?.state)).toBe('activated')

      await deploy(second)
      // An open page looks for a new version when it is shown again (and hourly). The new worker installs and waits.
      await page.evaluate(() => document.dispatchEvent(new Event('visibilitychange')))
      await expect(page.getByTestId('update-prompt')).toContainText('A new version is ready')
      await expect(page.getByTestId('update-reload')).toHaveText('Reload')
      expect(await waiting()).toBe('installed')
      await snap(page, testInfo, 'update prompt')
      // Reload: the new worker takes over and the page is the new version.
      const reloaded = page.waitForEvent('load')
      loaded = loadedAfterPaint(page)
      await page.getByTestId('update-reload').click()
      await reloaded
      expect(await waiting()).toBeNull()
      await expect(page.getByTestId('update-prompt')).toHaveCount(0)
      await expect.poll(async () => fs.existsSync(path.join(second, (await entryOf()) ?? 'none'))).toBe(true)
      expect(await page.evaluate(() => navigator.serviceWorker.controller?.state)).toBe('activated')
      await loaded

      // Another deploy removes this version's Staking chunk: opening Staking reloads once, onto the new version.
      await deploy(third)
      const loads: string[] = []
      page.on('load', () => loads.push(page.url()))
      await page.locator('.bottom-nav').getByRole('link', { name: 'Pledge' }).click()
      await expect(page.getByTestId('page-title')).toHaveText('Staking')
      // (The reload's load event may come after the screen painted.)
      await expect.poll(() => loads).toEqual([`${server.url}/pledge`])
      expect(fs.existsSync(path.join(third, (await entryOf()) ?? 'none'))).toBe(true)
    } finally {
      await server.stop()
      for (const dir of [first, second, third, env.DATA_DIR]) fs.rmSync(dir, { recursive: true, force: true })
    }
  })
})
