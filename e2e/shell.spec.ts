import { expect, newUser, snap, storage, test, useWallets, Wallet } from './fixtures.ts'

test.describe('web shell', () => {
  test.describe('in a Chinese browser', () => {
    test.use({ locale: 'zh-CN' })
    test('shows Chinese and stores zh; a stored language that is not one of the five becomes en', async ({
      page,
    }, testInfo) => {
      await useWallets(page, [new Wallet()])
      await page.goto('/team')
      await expect(page.getByTestId('page-title')).toHaveText('团队')
      await expect(page.getByTestId('bottom-nav')).toContainText('首页')
      expect((await storage(page)).language).toBe('zh')
      await expect(page.locator('html')).toHaveAttribute('lang', 'zh')
      await snap(page, testInfo, 'team in Chinese')

      // What is stored wins over the browser's languages, and what is not one of the five becomes en.
      await page.evaluate(() => localStorage.setItem('i18nextLng', 'xx'))
      await page.reload()
      await expect(page.getByTestId('page-title')).toHaveText('Team')
      expect((await storage(page)).language).toBe('en')
      await expect(page.locator('html')).toHaveAttribute('lang', 'en')
    })
  })

  test('a phone fetches the screen and its strings with the app, not once the app has run', async ({ page }) => {
    // The app's libraries are held back: the screen's chunk and the strings can only be asked for meanwhile if the
    // page itself names them (the server writes their preload links into it).
    let release = () => {}
    const held = new Promise<void>((done) => {
      release = done
    })
    await page.route(/\/assets\/vendor-[\w-]+\.js$/, async (route) => {
      await held
      await route.continue()
    })
    const asked: string[] = []
    page.on('request', (request) => asked.push(new URL(request.url()).pathname))
    await page.goto('/pledge', { waitUntil: 'commit' })
    const early = () =>
      ['pledge-screen', 'en'].filter((name) => asked.some((path) => path.startsWith(`/assets/${name}-`)))
    await expect.poll(early).toEqual(['pledge-screen', 'en'])
    release()
    await expect(page.getByTestId('page-title')).toHaveText('Staking')
    // The runtime config comes with the page too.
    expect(asked).not.toContain('/api/config')
  })

  test('the first screen waits for its public data, so it shows no placeholder that then moves what is below', async ({
    page,
  }) => {
    await page.addInitScript(() => {
      const seen = { skeleton: false, fallback: false }
      Object.assign(window, { seen })
      new MutationObserver((records) => {
        if (document.querySelector('[data-testid="banner-skeleton"]')) seen.skeleton = true
        // The screen's loading note, even if a second render replaced it at once (its chunk is here before the first
        // render: drawing the note first would be a whole render more on the phone's main thread).
        for (const record of records)
          for (const node of Array.from(record.addedNodes))
            if (node instanceof Element && (node.matches('.route-loading') || node.querySelector('.route-loading')))
              seen.fallback = true
      }).observe(document, { childList: true, subtree: true })
    })
    // The banners are held back until the strings and the home screen's chunk are here: without the wait, the home
    // would render then, with the banners' placeholder.
    const loaded = new Set<string>()
    let release = () => {}
    const ready = new Promise<void>((done) => {
      release = done
    })
    page.on('requestfinished', (request) => {
      const file = /\/assets\/(en|home)-[\w-]+\.js$/.exec(new URL(request.url()).pathname)?.[1]
      if (file) loaded.add(file)
      if (loaded.size === 2) release()
    })
    await page.route('**/api/home/banner/index', async (route) => {
      await ready
      await route.continue()
    })
    await page.goto('/')
    await expect(page.getByTestId('page-title')).toHaveText('solpledge')
    const seen = () =>
      page.evaluate(() => (window as unknown as { seen: { skeleton: boolean; fallback: boolean } }).seen)
    expect(await seen()).toEqual({ skeleton: false, fallback: false })
  })

  test('an unknown path shows the fallback page; a new page starts at the top and back returns to where the page was', async ({
    page,
  }, testInfo) => {
    await newUser(page)
    await page.goto('/no/such/page')
    await expect(page.getByTestId('page-title')).toHaveText('Page not found')
    await snap(page, testInfo, 'fallback')
    await page.getByRole('link', { name: 'Back to home' }).click()
    await expect(page).toHaveURL(/\/$/)
    await expect(page.getByTestId('page-title')).toHaveText('solpledge')

    // A short screen: both pages are taller than it, so nothing but the app brings the next one to the top.
    await page.setViewportSize({ width: 390, height: 320 })
    // Team's chunk loaded first: it renders at once, in place of a 'loading' line that would end the page at the top.
    await page.goto('/team')
    await expect(page.getByTestId('page-title')).toHaveText('Team')
    await page.getByTestId('bottom-nav').getByRole('link', { name: 'Home' }).click()
    await expect(page.getByTestId('page-title')).toHaveText('solpledge')
    // Home's data is in (content arriving above the fold would move the position: the browser's scroll anchoring).
    for (const part of ['home-figures', 'home-price', 'notice-strip'])
      await expect(page.getByTestId(part), part).toBeVisible()
    await expect(page.getByTestId('banner-skeleton')).toHaveCount(0)
    const scrollY = () => page.evaluate(() => window.scrollY)
    await page.evaluate(() => window.scrollTo(0, 200))
    await expect.poll(scrollY).toBeGreaterThan(100)
    const left = await scrollY()
    await page.getByTestId('bottom-nav').getByRole('link', { name: 'Team' }).click()
    await expect(page.getByTestId('page-title')).toHaveText('Team')
    expect(await scrollY()).toBe(0)
    await page.goBack()
    await expect(page.getByTestId('page-title')).toHaveText('solpledge')
    await expect.poll(scrollY).toBe(left)
  })

  test('the pages and the API documentation run under a Content-Security-Policy that refuses inline script and framing; pinch zoom is blocked', async ({
    page,
    cspViolations,
  }) => {
    await page.goto('/')
    await expect(page.getByTestId('page-title')).toHaveText('solpledge')
    const ran = await page.evaluate(() => {
      const script = document.createElement('script')
      script.textContent = 'window.inlineRan = true'
      document.body.append(script)
      return (window as unknown as { inlineRan?: boolean }).inlineRan === true
    })
    expect(ran).toBe(false)
    await expect.poll(() => cspViolations.length).toBe(1)
    // The wallet-signing pages cannot be framed by another site.
    const framing = await page.context().newPage()
    await framing.goto('about:blank')
    await framing.setContent(`<iframe src="${page.url()}"></iframe>`)
    expect(framing.frames().map((frame) => frame.url())).toEqual(['about:blank', 'chrome-error://chromewebdata/'])
    // Only the violation provoked here: the journey fixture fails a test on any other.
    expect(cspViolations).toEqual(['script-src-elem refused inline'])
    cspViolations.length = 0

    // Pinch zoom is blocked by touch handlers, not by the viewport flag.
    await expect(page.locator('meta[name=viewport]')).not.toHaveAttribute('content', /user-scalable|maximum-scale/)
    const prevented = await page.evaluate(() => {
      const event = new TouchEvent('touchmove', {
        cancelable: true,
        bubbles: true,
        touches: [
          new Touch({ identifier: 1, target: document.body, clientX: 10, clientY: 10 }),
          new Touch({ identifier: 2, target: document.body, clientX: 50, clientY: 50 }),
        ],
      })
      document.body.dispatchEvent(event)
      return event.defaultPrevented
    })
    expect(prevented).toBe(true)

    // The API documentation runs under the same policy (no violation: the fixture checks).
    await page.goto('/api/docs')
    // Swagger UI parses a 1.7 MB bundle, then fetches and renders the whole description: on a machine busy with the
    // other journeys that has taken longer than the default wait.
    await expect(page.locator('.swagger-ui .info .title')).toContainText('solpledge API', { timeout: 45_000 })
    await expect(page.locator('.opblock').first()).toBeVisible()
  })
})
