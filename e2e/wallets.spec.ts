import { api } from '@solpledge/contract'
import {
  apiCalls,
  baseUrl,
  callAs,
  expect,
  expectLoggedIn,
  goInApp,
  register,
  rootAddress,
  sheetReady,
  sheetsSettled,
  snap,
  storage,
  takeToasts,
  test,
  toast,
  useTestWallet,
  Wallet,
  walletPrompts,
  withoutDemoWallet,
} from './fixtures.ts'

const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.5 Mobile/15E148 Safari/604.1'
const ANDROID_CHROME =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36'

const signedOut = { userinfo: null, root: null, token: null }

/** The wallet picker's first list (not under 'More options'), and its option named `name`. */
const picker = (page: import('@playwright/test').Page) => page.getByTestId('wallet-modal')
const firstList = (page: import('@playwright/test').Page) => picker(page).locator('.wallet-list').first()

test.describe('Phantom on an iPhone without a wallet', () => {
  test.use({ userAgent: IPHONE })

  test("choosing Phantom opens this page in Phantom's browser, with the invite code", async ({ page }, testInfo) => {
    await withoutDemoWallet(page)
    const opened: string[] = []
    await page.route('https://phantom.app/**', (route) => {
      opened.push(route.request().url())
      return route.fulfill({ contentType: 'text/html', body: '<title>Phantom</title><p>Phantom</p>' })
    })
    await page.goto(`/?code=${rootAddress()}`)
    // Somewhere else in the app first: the link is for the page the user is on, with the code they came with.
    await page
      .getByRole('link', { name: /Staking/ })
      .first()
      .click()
    await expect(page).toHaveURL(/\/pledge$/)
    await page.getByTestId('connect-wallet').first().click()
    await expect(picker(page)).toContainText("You'll need a wallet on Solana to continue")
    const phantom = firstList(page).getByRole('button', { name: 'Phantom' })
    await expect(phantom).toBeVisible()
    await snap(page, testInfo, 'wallet picker')
    await phantom.click()
    await page.waitForURL(/^https:\/\/phantom\.app\/ul\/browse\//)
    const link = new URL(opened[0] ?? '')
    const target = new URL(decodeURIComponent(link.pathname.slice('/ul/browse/'.length)))
    expect(`${target.origin}${target.pathname}`).toBe(`${baseUrl()}/pledge`)
    expect(target.searchParams.get('code')).toBe(rootAddress())
    expect(link.searchParams.get('ref')).toBe(target.origin)
  })
})

test.describe('Phantom on Android Chrome', () => {
  test.use({ userAgent: ANDROID_CHROME })

  test('the Mobile Wallet Adapter is offered beside Phantom', async ({ page }, testInfo) => {
    await withoutDemoWallet(page)
    await page.goto('/')
    await page.getByTestId('connect-wallet').click()
    const options = firstList(page).locator('.wallet-option')
    await expect(options).toHaveText([/^Phantom/, /^Mobile Wallet Adapter/])
    await snap(page, testInfo, 'wallet picker on Android')
  })
})

test.describe('a Wallet Standard wallet (the test wallet, found as a real Phantom is)', () => {
  test('signs in with one prompt, restores the session silently on reload, a double tap on Withdraw opens its sheet, and Disconnect sticks', async ({
    page,
  }, testInfo) => {
    const wallet = new Wallet()
    await register(wallet)
    await useTestWallet(page, [wallet])
    await withoutDemoWallet(page)
    await page.goto('/')
    await page.getByTestId('connect-wallet').click()
    await expect(picker(page)).toContainText('Connect a wallet on Solana to continue')
    await firstList(page)
      .getByRole('button', { name: /Phantom/ })
      .click()
    await expectLoggedIn(page, wallet)
    expect(await walletPrompts(page)).toEqual(['signIn'])
    expect(await takeToasts(page)).toEqual(['Login successful'])
    const { token } = await storage(page)
    await snap(page, testInfo, 'signed in')

    // Reload: the same session, silently.
    await page.reload()
    await expectLoggedIn(page, wallet)
    expect((await storage(page)).token).toBe(token)
    expect(await walletPrompts(page)).toEqual([])
    expect(await takeToasts(page)).toEqual([])

    // A double tap on Withdraw opens the sheet, and it stays open (signed in with the test wallet: no demo wallet badge
    // over the top of the screen).
    await goInApp(page, '/assets')
    const usdt = page.locator('[data-testid="asset-row"][data-coin="USDT"]')
    const withdraw = usdt.getByTestId('withdraw-button')
    const sheet = page.getByTestId('withdraw-dialog')
    // Once, so that the sheet's code is loaded (the case of every sheet after the first).
    await withdraw.click()
    await expect(sheet).toBeVisible()
    await sheetReady(page)
    await page.keyboard.press('Escape')
    await expect(sheet).toHaveCount(0)
    // At the top of the screen, clear of the sheet: the second tap lands on the sheet's mask, as on a phone. Room below
    // the page first, so that the button reaches the top whatever the page holds under it at this moment (without it, a
    // page still short could stop the scroll with the button where the sheet opens).
    await page.evaluate(() => {
      document.body.style.paddingBottom = '100vh'
    })
    await withdraw.evaluate((element) => element.scrollIntoView({ block: 'start' }))
    const box = await withdraw.boundingBox()
    if (!box) throw new Error('the Withdraw button is not on the screen')
    const [x, y] = [box.x + box.width / 2, box.y + box.height / 2]
    await page.mouse.dblclick(x, y)
    // Its fade-in ends at full opacity only if nothing closed it on the way.
    await expect(page.locator('.modal-root')).toHaveCSS('opacity', '1')
    await expect(sheet).toBeVisible()
    // (The second tap did land on the mask.)
    expect(await page.evaluate((at) => document.elementFromPoint(at.x, at.y)?.className, { x, y })).toBe('modal-mask')
    await sheetReady(page)
    await page.keyboard.press('Escape')
    await expect(sheet).toHaveCount(0)
    await page.evaluate(() => {
      document.body.style.paddingBottom = ''
    })
    await sheetsSettled(page)
    await goInApp(page, '/')

    // Disconnect: signed out here and on the server, and still after a reload, with nothing asked.
    await page.getByTestId('disconnect').click()
    await expect(page.getByTestId('connect-wallet')).toBeVisible()
    expect(await storage(page)).toMatchObject(signedOut)
    await expect
      .poll(async () => (await callAs({ token: token ?? '', address: wallet.address }, api.userIndex.path, {})).code)
      .toBe(-403)
    await page.reload()
    await page.waitForLoadState('networkidle')
    await expect(page.getByTestId('connect-wallet')).toBeVisible()
    await expect(page.getByTestId('user-address')).toHaveCount(0)
    expect(await walletPrompts(page)).toEqual([])
    expect(await storage(page)).toMatchObject(signedOut)
    await snap(page, testInfo, 'signed out after reload')
  })

  test("a new member binds with signIn's one signature", async ({ page }) => {
    const wallet = new Wallet()
    await useTestWallet(page, [wallet])
    await withoutDemoWallet(page)
    await page.goto(`/?code=${rootAddress()}`)
    await page.getByTestId('connect-wallet').click()
    await firstList(page)
      .getByRole('button', { name: /Phantom/ })
      .click()
    await expect(page.getByTestId('bind-input')).toHaveValue(rootAddress())
    await page.getByTestId('bind-button').click()
    await expectLoggedIn(page, wallet)
    expect(await walletPrompts(page)).toEqual(['signIn'])
    await expect(toast(page, 'Login successful')).toBeVisible()
  })

  test('switching accounts in the wallet ends the first session and signs in the second', async ({ page }) => {
    const [first, second] = [new Wallet(), new Wallet()]
    await register(first)
    await register(second)
    await useTestWallet(page, [first, second])
    await withoutDemoWallet(page)
    await page.goto('/team')
    await page.getByTestId('connect-wallet').click()
    await firstList(page)
      .getByRole('button', { name: /Phantom/ })
      .click()
    await expect.poll(async () => JSON.parse((await storage(page)).userinfo ?? '{}').address).toBe(first.address)
    const { token } = await storage(page)
    await page.evaluate(() =>
      (
        window as unknown as { testWallets: Record<string, { switchAccount: (i: number) => void }> }
      ).testWallets.Phantom?.switchAccount(1),
    )
    await expect(page).toHaveURL(/\/$/)
    await expectLoggedIn(page, second)
    expect(await walletPrompts(page)).toEqual(['signIn', 'signIn'])
    expect((await callAs({ token: token ?? '', address: first.address }, api.userIndex.path, {})).code).toBe(-403)
  })

  test('20 disconnects in a row, wallet side and app side, each leave no userinfo, root or token', async ({ page }) => {
    test.setTimeout(180_000)
    const wallet = new Wallet()
    await register(wallet)
    await useTestWallet(page, [wallet])
    await withoutDemoWallet(page)
    const calls = apiCalls(page)
    await page.goto('/')
    for (let round = 0; round < 20; round++) {
      await page.getByTestId('connect-wallet').click()
      await firstList(page)
        .getByRole('button', { name: /Phantom/ })
        .click()
      // Half the rounds disconnect as soon as the wallet signed, while the login's calls are still on their way.
      if (round % 4 < 2) await expectLoggedIn(page, wallet)
      else await expect.poll(async () => (await walletPrompts(page)).length).toBe(round + 1)
      if (round % 2 === 0)
        await page.evaluate(() =>
          (
            window as unknown as { testWallets: Record<string, { disconnectFromWallet: () => void }> }
          ).testWallets.Phantom?.disconnectFromWallet(),
        )
      else await page.getByTestId('disconnect').click()
      await expect(page.getByTestId('connect-wallet')).toBeVisible()
      await calls.settled()
      expect(await storage(page), `round ${round + 1}`).toMatchObject(signedOut)
    }
    await page.reload()
    await page.waitForLoadState('networkidle')
    expect(await storage(page)).toMatchObject(signedOut)
    await expect(page.getByTestId('user-address')).toHaveCount(0)
  })
})
