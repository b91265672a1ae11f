import type { Page } from '@playwright/test'
import { api } from '@solpledge/contract'
import { seriousViolations } from './axe.ts'
import {
  addDays,
  callAs,
  expect,
  goInApp,
  keepReceipts,
  openReview,
  register,
  rpc,
  serverToday,
  settleThrough,
  snap,
  takeToasts,
  test,
  toast,
  useWallets,
  Wallet,
} from './fixtures.ts'
import { topUp } from './top-up.ts'

/**
 * Numbers as users read them (docs/money.md#showing-amounts-appswebsrclibformatts): every route of the app, in English
 * and Chinese, for a user with balances, positions, outputs and history, shows no raw i18n key, no figure with more
 * decimals than its asset shows and no figure of 10,000 or more without grouping. Exact amounts (detail screens, marked
 * data-exact) and prices (data-price) may show more decimals. On the way every route, loaded as a link opens it, shows
 * its screen with its title and the navigation. The review sheets, toasts and receipt sheets of money actions are held
 * to the same rules. It settles days ahead, which journeys that settle their own positions must not meet: a server of
 * its own.
 */

test.use({ ownServer: 'numbers' })

/** The most decimals a figure of each asset shows anywhere but an exact amount (lib/format.ts displayDecimals). */
const MAX_DECIMALS: Record<string, number> = { USDT: 2, SOL: 4, PLG: 6 }
/** A figure without an asset after it: power, percentages, prices in a table. */
const BARE_MAX_DECIMALS = 6

/**
 * What the screen shows, with exact amounts and prices left out, and the prices on their own: read in one synchronous
 * step in the page, so that a render between hiding the exact amounts and reading the text cannot bring them back.
 */
const visibleText = (page: Page) =>
  page.evaluate(() => {
    const marked = Array.from(document.querySelectorAll<HTMLElement>('[data-exact], [data-price]'))
    // biome-ignore lint/performance/useDomNodeTextContent: the rendered text is what people read
    const prices = Array.from(document.querySelectorAll<HTMLElement>('[data-price]'), (el) => el.innerText)
    for (const el of marked) el.style.visibility = 'hidden'
    // biome-ignore lint/performance/useDomNodeTextContent: the rendered text is what people read
    const text = document.body.innerText
    for (const el of marked) el.style.visibility = ''
    return { text, prices }
  })

/** The figures of a text ('12,345.67 USDT', '+0.5', '3105.439999996') with the asset symbol after each, if any. */
function figures(text: string) {
  const found: { figure: string; symbol: string | undefined }[] = []
  for (const match of text.matchAll(
    /(?<![\p{L}\p{N}#_.,:/-])[-+]?(\d[\d,.]*\d|\d)(?![\p{L}\p{N}_])(\s*([A-Z]{3,5})\b)?/gu,
  ))
    found.push({ figure: match[1] as string, symbol: match[4] })
  return found
}

/** What is wrong with the figures of a screen (English and Chinese group with ',' and mark decimals with '.'). */
function numberProblems(text: string, prices: string[]) {
  const problems: string[] = []
  const check = (figure: string, maxDecimals: number) => {
    const [whole = '', fraction = ''] = figure.split('.')
    if (!whole.includes(',') && whole.length >= 5) problems.push(`${figure}: 10,000 or more without grouping`)
    if (fraction.length > maxDecimals) problems.push(`${figure}: more than ${maxDecimals} decimals`)
  }
  for (const { figure, symbol } of figures(text))
    check(figure, symbol && symbol in MAX_DECIMALS ? (MAX_DECIMALS[symbol] as number) : BARE_MAX_DECIMALS)
  for (const price of prices) for (const { figure } of figures(price)) check(figure, BARE_MAX_DECIMALS)
  return problems
}

/** Raw i18n keys: dotted camelCase paths ('assets.detail.types') or snake_case words ('withdraw_pay'). */
const rawKeys = (text: string) => [
  ...(text.match(/\b[a-z][a-zA-Z]+(?:\.[a-z][a-zA-Z_]+)+\b/g) ?? []),
  ...(text.match(/\b[a-z]+(?:_[a-z]+)+\b/g) ?? []),
]

/**
 * Still loading: the loading text, the line shown while a screen's code loads, or a figure's placeholder '…' standing
 * alone (not inside a short address).
 */
const LOADING = [/Loading/, /加载中/, /^loading$/m, /(^|\s)…(\s|$)/m]

/**
 * Opens a route and waits until the screen has its figures (nothing loading, no placeholders): loaded as a link opens
 * it (`load`: the server's page for it, the app started on it), or through the app's router as its links do.
 */
async function open(page: Page, path: string, { load }: { load: boolean }) {
  await (load ? page.goto(path) : goInApp(page, path))
  await expect(page.getByTestId('page-title')).toBeVisible()
  await expect(page.getByTestId('bottom-nav')).toBeVisible()
  await expect
    .poll(async () => {
      // biome-ignore lint/performance/useDomNodeTextContent: the rendered text is what people read
      const text = await page.locator('body').innerText()
      return LOADING.filter((pattern) => pattern.test(text)).map(String)
    })
    .toEqual([])
}

/** The history's charts that must have figures here (the last trade price has none: nobody traded). */
const CHARTS = ['history-output', 'history-power', 'history-team', 'history-valuation']

/**
 * /pledge/history: waits until every chart with figures has drawn its axis (its labels, written by the app's
 * formatter, are kept on the canvas's element: the canvas has no text), opens every table, and returns the labels.
 */
async function openCharts(page: Page) {
  for (const chart of CHARTS)
    await expect(page.getByTestId(chart).first(), chart).not.toHaveAttribute('data-points', '0')
  const canvases = page.getByTestId('history-chart-canvas')
  await expect(canvases).toHaveCount(await page.locator('.history-chart[data-points]:not([data-points="0"])').count())
  await expect
    .poll(() => canvases.evaluateAll((elements) => elements.filter((element) => !element.dataset.axis).length))
    .toBe(0)
  await page.evaluate(() => {
    for (const table of Array.from(document.querySelectorAll<HTMLDetailsElement>('details.history-table')))
      table.open = true
  })
  await expect(page.getByTestId('history-rates-stake-30')).toBeVisible()
  const axes = await canvases.evaluateAll((elements) => elements.flatMap((e) => (e.dataset.axis ?? '').split('\n')))
  expect(axes.length).toBeGreaterThan(CHARTS.length)
  return axes
}

test('every route shows figures people can read, in English and Chinese', async ({ page }) => {
  test.setTimeout(180_000)
  const wallet = new Wallet()
  const session = await register(wallet)
  const today = await serverToday(session)
  // Balances past 10,000 on chain and on the platform.
  await rpc('localnet_faucet', [wallet.address, { tokens: { USDT: '40000000000', PLG: '20000000000000' } }])
  await topUp(wallet, session, 'USDT', 12_345_670_000n)
  await topUp(wallet, session, 'PLG', 15_000_123_456_789n)
  // Positions whose outputs have many decimals, history of several types.
  const stake = await callAs(session, api.pledgeStake.path, { amount: '10000000000000', days: 30 })
  expect(stake.msg).toBe('Staking Successful')
  const deposit = await callAs(session, api.financeDeposit.path, { amount: '1000000000', days: 7 })
  expect(deposit.code).toBe(1)
  const withdrawal = await callAs(session, api.withdraw.path, { coin: 'USDT', amount: '100000000' })
  expect(withdrawal.code).toBe(1)
  // A member who stakes: the team chart has a month to draw.
  const member = new Wallet()
  const memberSession = await register(member, wallet.address)
  await rpc('localnet_faucet', [member.address, { tokens: { PLG: '20000000000000' } }])
  await topUp(member, memberSession, 'PLG', 12_345_000_000_000n)
  const memberStake = await callAs(memberSession, api.pledgeStake.path, { amount: '12345000000000', days: 30 })
  expect(memberStake.msg).toBe('Staking Successful')
  // The settlement also records the day's prices (the history's price chart).
  await settleThrough(addDays(today, 2))

  const notices = await callAs(session, api.noticeList.path, { page: 1, limit: 1 })
  const notice = (notices.data as unknown as { list: { id: string }[] }).list[0]
  expect(notice, 'a seeded notice').toBeDefined()
  // Each route with the title of its screen in English (no two in a row on the same path: the screen is drawn anew).
  const routes: [string, string][] = [
    ['/', 'solpledge'],
    ['/assets', 'Assets'],
    ['/assets/detail?coin=USDT', 'Asset details'],
    ['/node', 'Node'],
    ['/assets/detail?coin=PLG', 'Asset details'],
    ['/pledge', 'Staking'],
    [`/pledge/orderDetail?id=${stake.data.id}`, 'Staking order detail'],
    [`/pledge/detail?id=${stake.data.id}`, 'Staking detail'],
    ['/finance', 'Finance'],
    [`/finance/detail?id=${deposit.data.id}`, 'Finance detail'],
    ['/notice', 'Notices'],
    [`/notice/detail/${notice?.id}`, 'Notice detail'],
    ['/team', 'Team'],
    ['/rank', 'Ranking'],
    ['/pledge/history', 'My history'],
    ['/swap', 'Swap'],
    ['/quick-trade/buy', 'Quick trade'],
    ['/quick-trade/sell', 'Quick trade'],
    ['/quick-trade/detail/1', 'Order detail'],
    ['/no-such-page', 'Page not found'],
  ]

  await useWallets(page, [wallet])
  await page.goto('/')
  for (const language of ['en', 'zh']) {
    await page.evaluate((lang) => localStorage.setItem('i18nextLng', lang), language)
    await page.reload()
    const problems: string[] = []
    let grouped = 0
    for (const [route, title] of routes) {
      // In English each route is loaded as a link opens it, so every screen is shown from the server's page for it
      // too; in Chinese the app's router goes from one to the next (what the figures are does not depend on how).
      await open(page, route, { load: language === 'en' })
      if (language === 'en') await expect(page.getByTestId('page-title'), route).toHaveText(title)
      await expect(page.locator('html')).toHaveAttribute('lang', language)
      const axes = route === '/pledge/history' ? await openCharts(page) : []
      const { text, prices } = await visibleText(page)
      problems.push(...rawKeys(text).map((key) => `${route}: raw key ${key}`))
      problems.push(...numberProblems(text, [...prices, ...axes]).map((problem) => `${route}: ${problem}`))
      for (const label of [text, ...axes].filter((shown) => /NaN|Infinity|undefined/.test(shown)))
        problems.push(`${route}: ${label.match(/.*(NaN|Infinity|undefined).*/)?.[0]}`)
      grouped += figures(text).filter(({ figure }) => /^\d{1,3}(,\d{3})+/.test(figure)).length
    }
    expect(problems, language).toEqual([])
    // The check saw figures of 10,000 or more, grouped: it would have caught them ungrouped.
    expect(grouped, language).toBeGreaterThan(0)
  }
})

/** The text of an element as people read it: what the figure checks above read on a whole screen. */
const textOf = (page: Page, testId: string) =>
  // biome-ignore lint/performance/useDomNodeTextContent: the rendered text is what people read
  page.getByTestId(testId).evaluate((element: HTMLElement) => element.innerText)

test('review sheets, toasts and receipts show their figures as the screens do', async ({ page }, testInfo) => {
  test.setTimeout(120_000)
  const wallet = new Wallet()
  const session = await register(wallet)
  await rpc('localnet_faucet', [wallet.address, { tokens: { USDT: '40000000000', PLG: '20000000000000' } }])
  await topUp(wallet, session, 'USDT', 30_000_000_000n)
  await topUp(wallet, session, 'PLG', 15_000_123_456_789n)
  await useWallets(page, [wallet])
  // This journey reads every receipt itself.
  await keepReceipts(page)
  const problems: string[] = []
  const check = (where: string, text: string) => {
    problems.push(...rawKeys(text).map((key) => `${where}: raw key ${key}`))
    problems.push(...numberProblems(text, []).map((problem) => `${where}: ${problem}`))
  }
  /** The receipt after a money action: its figures, its state, no serious axe violation; then closed with Done. */
  const readReceipt = async (action: string, state: string) => {
    const receipt = page.getByTestId('receipt')
    await expect(receipt).toBeVisible()
    await expect(receipt.getByTestId('receipt-state')).toHaveAttribute('data-state', state)
    check(`${action} receipt`, await textOf(page, 'receipt'))
    expect(await seriousViolations(page, `${action} receipt`)).toEqual([])
    await snap(page, testInfo, `${action} receipt`)
    await receipt.getByTestId('receipt-done').click()
    await expect(receipt).toBeHidden()
  }

  await test.step('a stake of 12,345.678 PLG: its review, toast and receipt', async () => {
    await page.goto('/pledge')
    await expect(page.getByTestId('pledge-config')).toBeVisible()
    await page.locator('[data-testid="pledge-period"][data-value="30"]').click()
    await page.getByTestId('pledge-pay-balance').click()
    await page.getByTestId('pledge-amount').fill('12345.678')
    const confirm = await openReview(page.getByTestId('pledge-submit'))
    await expect(page.getByTestId('review-amount')).toHaveText('12,345.678 PLG')
    check('stake review', await textOf(page, 'review'))
    await takeToasts(page)
    await confirm.click()
    await expect(toast(page, 'Staking Successful')).toBeVisible()
    await expect(page.getByTestId('receipt-amount')).toHaveText('12,345.678 PLG')
    await readReceipt('stake', 'mining')
  })

  await test.step('a withdrawal of 12,000.5 USDT, over the review threshold: under review in its toast and receipt', async () => {
    await page.goto('/assets')
    await page.locator('[data-testid="asset-row"][data-coin="USDT"]').getByTestId('withdraw-button').click()
    await page.getByTestId('withdraw-amount').fill('12000.5')
    const confirm = await openReview(page.getByTestId('withdraw-submit'))
    await expect(page.getByTestId('review-amount')).toHaveText('12,000.5 USDT')
    check('withdrawal review', await textOf(page, 'review'))
    await confirm.click()
    await expect(toast(page, 'Withdrawal requested: it is under review before it is sent')).toBeVisible()
    await expect(page.getByTestId('receipt-state')).toHaveText('Under review')
    await expect(page.getByTestId('receipt-receive')).toHaveText('11,999.5 USDT')
    await readReceipt('withdrawal', 'review')
  })

  await test.step('a refusal names its figure grouped, as the screens write it', async () => {
    await page.goto('/quick-trade/sell')
    await page.getByTestId('order-price-input').fill('0.5')
    await page.getByTestId('order-amount-input').fill('20000000')
    await page.getByTestId('order-submit').click()
    await expect(toast(page, 'The amount cannot be more than 10,000,000 PLG')).toBeVisible()
  })

  for (const text of await takeToasts(page)) check('toast', text)
  expect(problems).toEqual([])
})
