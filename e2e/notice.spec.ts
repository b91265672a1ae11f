import { api } from '@solpledge/contract'
import { expect, newUser, snap, storage, test } from './fixtures.ts'

/** The seeded demo notices (apps/server/src/modules/notice/seed.ts), newest first. */
const SEEDED = {
  en: ['Daily settlement time', 'How daily output is released', 'Welcome to solpledge'],
  ja: ['毎日の精算時刻', '毎日のアウトプットの配布について', 'solpledge へようこそ'],
  zh: ['每日结算时间', '每日产出如何释放', '欢迎使用 solpledge'],
  ko: ['일일 정산 시간', '일일 산출 지급 방식', 'solpledge에 오신 것을 환영합니다'],
}
const BANNERS = {
  en: ['Stake and earn every day', 'Own a node, share the pool', 'Grow your team'],
  ko: ['스테이킹하고 매일 산출 받기', '노드를 보유하고 풀을 나누세요', '팀을 키우세요'],
}

test.describe('notices and banners', () => {
  test('the notice list shows the seeded notices and opens one; a link in a notice body opens inside the app; an unknown notice says so; more notices load when the end of the list scrolls into view', async ({
    page,
  }, testInfo) => {
    await newUser(page)
    await page.goto('/notice')
    await expect(page.getByTestId('page-title')).toHaveText('Notices')
    const items = page.getByTestId('notice-item')
    await expect(items).toHaveCount(3)
    for (const [index, title] of SEEDED.en.entries()) await expect(items.nth(index)).toContainText(title)
    await expect(items.first().locator('time')).not.toBeEmpty()
    // Fewer than a page: nothing more to load.
    await expect(page.getByTestId('notice-more')).toHaveCount(0)
    await snap(page, testInfo, 'notice list')

    await items.filter({ hasText: 'How daily output is released' }).click()
    await expect(page).toHaveURL(/\/notice\/detail\/\d+$/)
    await expect(page.getByTestId('page-title')).toHaveText('Notice detail')
    await expect(page.getByTestId('notice-title')).toHaveText('How daily output is released')
    const detail = page.getByTestId('notice-detail')
    await expect(detail.locator('time')).not.toBeEmpty()
    // The rich text renders as elements: two paragraphs, one with emphasis.
    await expect(detail.locator('.notice-body p')).toHaveCount(2)
    await expect(detail.locator('.notice-body em')).toHaveText('staking detail')
    await expect(page.getByTestId('notice-fallback')).toHaveCount(0)
    await snap(page, testInfo, 'notice detail')

    await page.getByTestId('notice-back').click()
    await expect(page).toHaveURL(/\/notice$/)
    await expect(items).toHaveCount(3)

    // A link in a notice body opens inside the app.
    await items.filter({ hasText: 'Welcome to solpledge' }).click()
    const body = detail.locator('.notice-body')
    await expect(body.locator('li')).toHaveCount(3)
    await body.getByRole('link', { name: 'Assets' }).click()
    await expect(page).toHaveURL(/\/assets$/)
    await expect(page.getByTestId('page-title')).toHaveText('Assets')

    // An unknown notice says so.
    await page.goto('/notice/detail/987654321')
    await expect(page.getByTestId('empty-state')).toHaveText('This notice does not exist.')
    await expect(page.getByTestId('toast')).toHaveCount(0)
    await page.goto('/notice/detail/abc')
    await expect(page.getByTestId('empty-state')).toHaveText('This notice does not exist.')
    await snap(page, testInfo, 'unknown notice')

    // More notices load when the end of the list scrolls into view: two per page instead of ten, so that the three
    // seeded notices make two pages, and long titles, so that the first page fills more than the screen.
    const asked: number[] = []
    await page.route(`**/api${api.noticeList.path}`, async (route) => {
      const body = JSON.parse(route.request().postData() ?? '{}')
      asked.push(body.page)
      const response = await route.fetch({ postData: JSON.stringify({ ...body, limit: 2 }) })
      const json = await response.json()
      for (const notice of json.data.list) notice.title = `${notice.title}: ${'a long title '.repeat(80)}`
      return route.fulfill({ response, json })
    })
    await page.goto('/notice')
    await expect(items).toHaveCount(2)
    const more = page.getByTestId('notice-more')
    await expect(more).not.toBeInViewport()
    // The live channel's snapshot may refetch the first page once more; the second is asked only on scrolling.
    expect(asked).toContain(1)
    expect(asked).not.toContain(2)
    await snap(page, testInfo, 'first page')
    await more.scrollIntoViewIfNeeded()
    await expect(items).toHaveCount(3)
    expect(asked).toContain(2)
    for (const [index, title] of SEEDED.en.entries()) await expect(items.nth(index)).toContainText(title)
    await expect(more).toHaveCount(0)
    await snap(page, testInfo, 'all pages loaded')
  })

  test('home shows the banners and the notice strip, which opens the newest notice; a notice flagged as the event notice opens as a dialog once, with a close button', async ({
    page,
  }, testInfo) => {
    await newUser(page)
    await page.goto('/')
    const banners = page.getByTestId('banner')
    await expect(banners).toHaveCount(3)
    for (const [index, title] of BANNERS.en.entries()) await expect(banners.nth(index)).toContainText(title)
    // The images are the web app's own files and they load.
    const image = banners.first().locator('img')
    await expect(image).toHaveAttribute('src', '/banners/stake.svg')
    await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0)
    await expect(page.getByTestId('notice-strip-item')).toHaveText(SEEDED.en[0] as string)
    // No notice is flagged as the event notice: the dialog stays closed.
    const dialog = page.getByTestId('event-notice')
    await expect(dialog).toHaveCount(0)
    await snap(page, testInfo, 'home with banners and notice strip')

    await page.getByTestId('notice-strip-item').click()
    await expect(page).toHaveURL(/\/notice\/detail\/\d+$/)
    await expect(page.getByTestId('notice-title')).toHaveText(SEEDED.en[0] as string)

    await page.goto('/')
    await page.getByTestId('notice-strip-more').click()
    await expect(page).toHaveURL(/\/notice$/)
    await expect(page.getByTestId('notice-item')).toHaveCount(3)

    // A banner leads where its link says.
    await page.goto('/')
    await banners.first().click()
    await expect(page).toHaveURL(/\/pledge$/)

    // The seed flags none; here the list answer names its newest notice as the event notice.
    await page.route(`**/api${api.noticeList.path}`, async (route) => {
      const response = await route.fetch()
      const json = await response.json()
      const [newest] = json.data.list
      json.data.event = { id: newest.id, title: newest.title }
      return route.fulfill({ response, json })
    })
    await page.goto('/')
    await expect(dialog).toBeVisible()
    await expect(dialog.getByRole('heading')).toHaveText(SEEDED.en[0] as string)
    await expect(dialog).toContainText('00:00 UTC')
    await snap(page, testInfo, 'event notice dialog')
    await dialog.getByRole('button', { name: 'Close' }).click()
    await expect(dialog).toHaveCount(0)
    // Closed for the rest of the visit.
    await page.getByTestId('notice-strip-more').click()
    await expect(page.getByTestId('notice-item')).toHaveCount(3)
    await page.getByTestId('bottom-nav').getByText('Home').click()
    await expect(page.getByTestId('notice-strip-item')).toBeVisible()
    await expect(dialog).toHaveCount(0)
    // The list's handler may still be answering a fetch: the test ends once it has (on a loaded machine it otherwise
    // outlived the page and failed reading a disposed response).
    await page.unrouteAll({ behavior: 'wait' })
  })

  test('switching language shows the translated notices and banners', async ({ page }, testInfo) => {
    await newUser(page, { language: 'ja' })
    await page.goto('/notice')
    // The silent sign-in done (its session stored, its overlay gone), so the tap below is not taken by it.
    await expect.poll(async () => (await storage(page)).token).toBeTruthy()
    await expect(page.getByTestId('loading-overlay')).toHaveCount(0)
    await expect(page.getByTestId('page-title')).toHaveText('お知らせ')
    const items = page.getByTestId('notice-item')
    for (const [index, title] of SEEDED.ja.entries()) await expect(items.nth(index)).toContainText(title)
    await items.first().click()
    await expect(page.getByTestId('notice-title')).toHaveText(SEEDED.ja[0] as string)
    const detailUrl = page.url()
    await snap(page, testInfo, 'notice in Japanese')

    await page.goto('/')
    await page.getByTestId('language-switcher').getByRole('button', { name: '한국어' }).click()
    await expect(page.getByTestId('notice-strip-item')).toHaveText(SEEDED.ko[0] as string)
    for (const [index, title] of BANNERS.ko.entries())
      await expect(page.getByTestId('banner').nth(index)).toContainText(title)
    await snap(page, testInfo, 'home in Korean')

    await page.goto(detailUrl)
    await expect(page.getByTestId('notice-title')).toHaveText(SEEDED.ko[0] as string)
    await page.goto('/')
    await page.getByTestId('language-switcher').getByRole('button', { name: '中文' }).click()
    await page.getByTestId('notice-strip-item').click()
    await expect(page.getByTestId('notice-title')).toHaveText(SEEDED.zh[0] as string)
    await expect(page.getByTestId('page-title')).toHaveText('公告详情')
    await snap(page, testInfo, 'notice in Chinese')
  })

  test.describe('for a visitor who has not asked for reduced motion', () => {
    // The other journeys run with reduced motion (playwright.config.ts): here the banners move on their own.
    test.use({ reducedMotion: 'no-preference' })

    test('the banners advance by themselves every few seconds and the dots follow', async ({ page }) => {
      await newUser(page)
      await page.goto('/')
      await expect(page.getByTestId('banner')).toHaveCount(3)
      const dots = page.locator('.banner-dots button')
      await expect(dots.nth(0)).toHaveAttribute('aria-current', 'true')
      await expect(dots.nth(1)).toHaveAttribute('aria-current', 'true', { timeout: 15_000 })
      await expect(dots.nth(0)).toHaveAttribute('aria-current', 'false')
      const track = page.getByTestId('banner-carousel')
      expect(await track.evaluate((element) => element.scrollLeft)).toBeGreaterThan(0)
    })
  })
})
