import type { Page } from '@playwright/test'
import { api } from '@solpledge/contract'
import {
  callAs,
  expect,
  liveFrames,
  newUser,
  quiet,
  recordAttribute,
  secondPhone,
  snap,
  submitReviewed,
  test,
} from './fixtures.ts'
import { topUp } from './top-up.ts'

// The live channel (docs/architecture.md "Live updates"): what changes reaches the screen by push, and an idle screen
// asks nothing. On a server of its own: nothing else happens on it while the idle screens are counted.
test.use({ ownServer: 'live' })

test('a top-up whose report never arrives goes from "seen" to "credited" on /assets without a reload', async ({
  page,
}, testInfo) => {
  await newUser(page)
  await page.goto('/assets')
  await page.getByTestId('faucet-button').click()
  await expect(page.locator('[data-testid="wallet-balance"][data-coin="USDT"]')).toContainText('1,000')
  // The tab pays on chain, but its report of the payment is lost: the server's watcher finds the payment by its
  // reference and credits it, and the live channel tells this screen.
  await page.route(`**/api${api.intentSubmit.path}`, (route) => route.abort())
  const usdt = page.locator('[data-testid="asset-row"][data-coin="USDT"]')
  await usdt.getByTestId('recharge-button').click()
  await page.getByTestId('recharge-amount').fill('30')
  const steps = await recordAttribute(page, '[data-testid="top-up-row"]', 'data-step')
  await submitReviewed(page.getByTestId('recharge-submit'))
  const row = page.getByTestId('top-up-row')
  await expect(row).toHaveAttribute('data-step', 'credited', { timeout: 30_000 })
  await expect(usdt.getByTestId('asset-available')).toHaveText('30')
  // Shown in turn (recorded as the page drew them: "seen" lasts until the watcher's next pass).
  expect((await steps.values())?.filter((step) => step !== 'sent')).toEqual(['seen', 'credited'])
  await snap(page, testInfo, 'top-up credited')
})

test('idle /assets and /quick-trade make at most 3 requests a minute to the API and the RPC together', async ({
  page,
  browser,
}, testInfo) => {
  test.setTimeout(150_000)
  const { wallet, session } = await newUser(page)
  await topUp(wallet, session, 'USDT', 20n * 1_000_000n)
  const trade = await secondPhone(browser, testInfo)
  await newUser(trade)
  // The new server's first proof-of-liabilities snapshot (after its first settlement) is a real event: let it pass
  // (its jobs run every 2 s on this server: fixtures.ts).
  await expect
    .poll(async () => (await callAs({}, api.liabilitiesRoot.path, {})).data !== null, { timeout: 30_000 })
    .toBe(true)
  const watch = async (phone: Page, path: string, ready: string) => {
    const frames = liveFrames(phone)
    await phone.goto(path)
    // Loaded: signed in (the channel has the user's topic) and the screen's data is in.
    await expect.poll(() => frames.some((frame) => frame.type === 'subscribed' && frame.topic === 'user')).toBe(true)
    await expect(phone.getByTestId(ready)).toBeVisible()
    await quiet(phone, 3_000)
    const requests: string[] = []
    phone.on('request', (request) => requests.push(`${request.method()} ${request.url()}`))
    return requests
  }
  const [assets, quickTrade] = await Promise.all([
    watch(page, '/assets', 'wallet-balances'),
    watch(trade, '/quick-trade/buy', 'order-available'),
  ])
  await expect(page.locator('[data-testid="asset-row"][data-coin="USDT"]').getByTestId('asset-available')).toHaveText(
    '20',
  )
  // The measurement itself: one minute of nothing happening on both phones.
  await page.waitForTimeout(60_000)
  expect(assets.length, assets.join('\n')).toBeLessThanOrEqual(3)
  expect(quickTrade.length, quickTrade.join('\n')).toBeLessThanOrEqual(3)
  await snap(page, testInfo, 'idle assets')
  await trade.context().close()
})
