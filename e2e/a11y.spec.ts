import type { Locator, Page } from '@playwright/test'
import { seriousViolations } from './axe.ts'
import {
  adminWallet,
  expect,
  expectLoggedIn,
  goInApp,
  register,
  rootAddress,
  sheetsSettled,
  snap,
  test,
  toast,
  useWallets,
  Wallet,
} from './fixtures.ts'
import { topUp } from './top-up.ts'

/**
 * Accessibility and phone layout (docs/architecture.md#accessibility-and-phone-layout) of every route of the app and of
 * the console, signed out and signed in, with their sheets open: no serious or critical axe violation of WCAG 2.x A/AA
 * (tap targets of at least 24 px included) or of axe's best practices, nothing wider than the 390 px screen, no
 * placeholder cut off. Each role reuses one page; the findings of all screens are reported together.
 */

const APP_ROUTES = [
  '/',
  '/rank',
  '/node',
  '/pledge',
  '/pledge/detail',
  '/pledge/orderDetail',
  '/pledge/history',
  '/finance',
  '/finance/detail',
  '/team',
  '/assets',
  '/assets/detail?coin=USDT',
  '/notice',
  '/notice/detail/1',
  '/campaign',
  '/swap',
  '/quick-trade/buy',
  '/quick-trade/sell',
  '/quick-trade/detail/1',
  '/no/such/page',
]

const CONSOLE_ROUTES = [
  '/admin',
  '/admin/withdrawals',
  '/admin/users',
  '/admin/config',
  '/admin/content',
  '/admin/audit',
]

/**
 * What is wrong with the screen as it is now: each serious or critical axe violation (rule, then the elements), a
 * page wider than the screen, an input whose placeholder does not fit.
 */
async function findings(page: Page, screen: string) {
  const found = await seriousViolations(page, screen)
  const wide = await page.evaluate(() => {
    const { scrollWidth } = document.documentElement
    if (scrollWidth <= innerWidth) return null
    // The deepest elements that reach past the screen's edge: where the width comes from.
    const past = Array.from(document.body.querySelectorAll('*')).filter(
      (e) => e.getBoundingClientRect().right > innerWidth,
    )
    const deepest = past.filter((e) => !past.some((other) => other !== e && e.contains(other)))
    const name = (e: Element) =>
      `${e.tagName.toLowerCase()}${e.className ? `.${String(e.className).split(' ')[0]}` : ''}`
    return `${scrollWidth} px wide on a ${innerWidth} px screen (${deepest.slice(0, 3).map(name).join(', ')})`
  })
  if (wide) found.push(`${screen}: ${wide}`)
  found.push(...(await layoutFindings(page, screen)))
  for (const what of await unreachable(page)) found.push(`${screen}: clickable but not reachable by keyboard: ${what}`)
  return found
}

/** The layout findings alone: cut-off placeholders. */
async function layoutFindings(page: Page, screen: string) {
  return (await cutPlaceholders(page)).map((cut) => `${screen}: placeholder cut off: ${cut}`)
}

/**
 * What looks tappable (a pointer cursor) but is neither a control nor inside one, so a keyboard cannot reach it: a
 * clickable <div>.
 */
function unreachable(page: Page) {
  return page.evaluate(() => {
    const controls = 'a[href], button, input, select, textarea, summary, label, [tabindex]:not([tabindex="-1"])'
    const pointer = (e: Element | null) => e !== null && getComputedStyle(e).cursor === 'pointer'
    return Array.from(document.body.querySelectorAll('*'))
      .filter((e) => pointer(e) && !pointer(e.parentElement) && !e.closest(controls) && e.checkVisibility())
      .map((e) => e.outerHTML.slice(0, 120))
  })
}

/** The placeholders, among the visible empty inputs, that are wider than their input. */
function cutPlaceholders(page: Page) {
  return page.evaluate(() => {
    const canvas = document.createElement('canvas').getContext('2d') as CanvasRenderingContext2D
    const cut: string[] = []
    for (const input of Array.from(document.querySelectorAll<HTMLInputElement>('input[placeholder]'))) {
      if (input.value || !input.checkVisibility()) continue
      const style = getComputedStyle(input, '::placeholder')
      canvas.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`
      const box = getComputedStyle(input)
      const room = input.clientWidth - Number.parseFloat(box.paddingLeft) - Number.parseFloat(box.paddingRight)
      if (canvas.measureText(input.placeholder).width > room) cut.push(input.placeholder)
    }
    return cut
  })
}

/** Waits until the screen has rendered: its title, no loading text. */
async function settled(page: Page, title: Locator) {
  await expect(title).toBeVisible()
  await expect(page.getByText(/^loading…?$/i)).toHaveCount(0)
  await expect(page.getByTestId('loading-overlay')).toHaveCount(0)
}

/**
 * Closes the open sheet with Escape and waits until it has taken its history entry back
 * (apps/web/src/lib/modal-history.ts): a navigation before that would be undone by the step back.
 */
async function closeSheet(page: Page) {
  await page.keyboard.press('Escape')
  await sheetsSettled(page)
}

/** Visits every app route (and the sheets `sheets` opens on the way), returning the findings. */
async function visitApp(page: Page, role: string, sheets: Record<string, (page: Page) => Promise<void>> = {}) {
  const found: string[] = []
  for (const path of APP_ROUTES) {
    await goInApp(page, path)
    await settled(page, page.getByTestId('page-title'))
    found.push(...(await findings(page, `${role} ${path}`)))
    const open = sheets[path]
    if (open) {
      await open(page)
      found.push(...(await findings(page, `${role} ${path} (sheet)`)))
      await page.keyboard.press('Escape')
      await expect(page.getByRole('dialog')).toHaveCount(0)
    }
  }
  return found
}

test.describe('accessibility and phone layout', () => {
  // One axe run a screen, about 20 screens a role; the roles side by side.
  test.describe.configure({ mode: 'parallel', timeout: 240_000 })
  test('a new wallet with the bind sheet open, then the app signed out, with the wallet picker open', async ({
    page,
  }, testInfo) => {
    await useWallets(page, [new Wallet()])
    await page.goto('/')
    const dialog = page.getByTestId('bind-dialog')
    await expect(dialog).toBeVisible()
    const found = await findings(page, 'bind sheet')
    await snap(page, testInfo, 'bind sheet')
    // Bound, then disconnected: a visitor who signed out.
    await page.getByTestId('bind-input').fill(rootAddress())
    await page.getByTestId('bind-button').click()
    await expect(dialog).toHaveCount(0)
    await expect(page.getByTestId('user-address')).toBeVisible()
    await page.getByTestId('disconnect').click()
    await expect(page.getByTestId('connect-wallet')).toBeVisible()
    found.push(
      ...(await visitApp(page, 'signed out', {
        '/assets': async (page) => {
          await page.getByTestId('connect-wallet').click()
          await expect(page.getByRole('dialog')).toBeVisible()
        },
      })),
    )
    await snap(page, testInfo, 'last route')
    expect(found).toEqual([])
  })

  test('the app signed in, with its sheets open', async ({ page }, testInfo) => {
    const wallet = new Wallet()
    const session = await register(wallet)
    await topUp(wallet, session, 'USDT', 200_000_000n)
    await useWallets(page, [wallet])
    await page.goto('/')
    await expectLoggedIn(page, wallet)
    const usdt = (page: Page) => page.locator('[data-testid="asset-row"][data-coin="USDT"]')
    const found = await visitApp(page, 'signed in', {
      '/assets': async (page) => {
        await usdt(page).getByTestId('withdraw-button').click()
        await expect(page.getByTestId('withdraw-dialog')).toBeVisible()
        await page.getByTestId('withdraw-amount').fill('20')
      },
      '/node': async (page) => {
        await page.getByTestId('node-buy').first().click()
        await expect(page.getByRole('dialog')).toBeVisible()
      },
    })
    await goInApp(page, '/assets')
    await usdt(page).getByTestId('recharge-button').click()
    await expect(page.getByTestId('recharge-dialog')).toBeVisible()
    found.push(...(await findings(page, 'signed in /assets (top-up sheet)')))
    await snap(page, testInfo, 'top-up sheet')
    // The forms' placeholders fit in every language.
    for (const language of ['en', 'zh', 'ja', 'ko', 'vi']) {
      await goInApp(page, '/')
      await page.getByTestId('language-switcher').locator(`button[lang="${language}"]`).click()
      await expect(page.locator('html')).toHaveAttribute('lang', language)
      for (const path of ['/pledge', '/finance', '/swap', '/quick-trade/buy']) {
        await goInApp(page, path)
        await settled(page, page.getByTestId('page-title'))
        found.push(...(await layoutFindings(page, `${language} ${path}`)))
      }
    }
    expect(found).toEqual([])
  })

  test('the console signed out and signed in as an admin, with its dialogs open', async ({ page }, testInfo) => {
    const admin = adminWallet()
    const user = new Wallet()
    await register(user)
    await useWallets(page, [admin])
    await page.goto('/admin')
    await settled(page, page.getByTestId('admin-login'))
    const found = await findings(page, 'console sign-in')
    await page.getByTestId('admin-sign-in').click()
    await expect(toast(page, 'Signed in to the operator console')).toBeVisible()
    for (const path of CONSOLE_ROUTES) {
      await goInApp(page, path)
      await settled(page, page.getByTestId('admin-title'))
      found.push(...(await findings(page, path)))
    }
    await goInApp(page, '/admin/config')
    for (const tab of ['assets', 'history', 'operators', 'changes']) {
      await page.getByTestId(`admin-config-tab-${tab}`).click()
      await expect(page.getByText('Loading…')).toHaveCount(0)
      found.push(...(await findings(page, `/admin/config ${tab}`)))
    }

    await goInApp(page, '/admin/users')
    await page.getByTestId('admin-user-search').fill(user.address.slice(0, 8))
    await page.getByTestId('admin-user-search-submit').click()
    await page.getByTestId('admin-user-result').first().getByRole('button').click()
    await expect(page.getByTestId('admin-user-address')).toHaveText(user.address)
    found.push(...(await findings(page, 'user detail')))
    await page.getByTestId('admin-user-adjust').click()
    await expect(page.getByTestId('admin-adjust-amount')).toBeVisible()
    found.push(...(await findings(page, 'adjustment dialog')))
    await page.keyboard.press('Escape')
    await page.getByTestId('admin-user-revoke-all').click()
    await expect(page.getByTestId('admin-reason')).toBeVisible()
    found.push(...(await findings(page, 'reason dialog')))
    await closeSheet(page)

    await goInApp(page, '/admin/content')
    await page.getByTestId('admin-notice-new').click()
    await expect(page.getByTestId('admin-notice-editor')).toBeVisible()
    found.push(...(await findings(page, 'notice editor')))
    await snap(page, testInfo, 'notice editor')
    expect(found).toEqual([])
  })
})
