import type { Page } from '@playwright/test'
import { api } from '@solpledge/contract'
import { operator, saveReviewThreshold, signInToConsole } from './console.ts'
import {
  callAs,
  doubleTapOnce,
  expect,
  onChainBalance,
  recordAttribute,
  register,
  secondPhone,
  snap,
  submitReviewed,
  test,
  toast,
  useWallets,
  Wallet,
} from './fixtures.ts'
import { topUp } from './top-up.ts'

/**
 * The operator console's journeys with one admin run against a server of their own (on the shared local chain): they
 * change the business configuration and the asset settings, which the other journeys, running at the same time on the
 * shared server, rely on. The operator is the servers' admin (`operator`, console.ts). The journeys with a second
 * admin are four-eyes.spec.ts, on a server of theirs: once a second admin exists, one admin alone only proposes.
 */
test.use({ ownServer: 'admin' })
// Each journey signs in to the console and drives a second phone: on CI's two cores that takes more than a minute.
test.describe.configure({ timeout: 120_000 })

/**
 * Follows the USDT row's link to its detail screen. Right after the withdraw sheet closed, the sheet's step back in
 * the history (apps/web/src/lib/modal-history.ts) can undo the navigation: then the link is followed again.
 */
async function openUsdtDetail(phone: Page) {
  await expect(async () => {
    if (!phone.url().includes('/assets/detail'))
      await phone.locator('[data-testid="asset-row"][data-coin="USDT"]').getByTestId('asset-detail-link').click()
    await expect(phone.getByTestId('withdrawal-row').first()).toBeVisible({ timeout: 2_000 })
  }).toPass({ timeout: 15_000 })
}

test('an operator edits the pledge minimum and a user sees the new minimum', async ({ page, browser }, testInfo) => {
  await test.step('the operator signs in to the console on a desktop screen', async () => {
    await page.setViewportSize({ width: 1280, height: 900 })
    await signInToConsole(page, operator, testInfo)
    await expect(page.getByTestId('admin-solvency')).toBeVisible()
    await expect(page.getByTestId('admin-job-settlement')).toBeVisible()
    // The hot wallet the local chain funded pays.
    await expect(page.getByTestId('admin-hot-wallet')).toHaveText('Paying')
    // The only admin: the four-eyes rules cannot apply, and the operations screen says so.
    await expect(page.locator('[data-testid="admin-four-eyes-warning"][data-kind="admins"]')).toBeVisible()
    // The release the server runs, and the last 30 days in small charts: users, then four per asset.
    await expect(page.getByTestId('admin-release')).toHaveText(/^Release \d+\.\d+\.\d+ \(\w+\) on Node 2\d\./)
    const charts = page.getByTestId('admin-history').getByTestId('admin-chart')
    await expect(charts.first()).toHaveAttribute('data-chart', 'users')
    await expect(page.locator('[data-chart="USDT-deposits"]')).toBeVisible()
    await expect(page.locator('[data-chart="USDT-solvency"]')).toBeVisible()
    await expect(page.locator('[data-chart="users"] [data-testid="admin-chart-latest"]')).toHaveText(/^[1-9][\d,]*$/)
    await snap(page, testInfo, 'operations')
  })

  await test.step('a wrong minimum is refused in the form, nothing saved', async () => {
    await page.getByTestId('admin-nav-config').click()
    const minimum = page.getByTestId('config-pledge.minUsdt')
    await expect(minimum).toHaveValue('100')
    await minimum.fill('150.0000001')
    await page.getByTestId('admin-config-save').click()
    await expect(page.getByTestId('config-pledge.minUsdt-error')).toHaveText('At most 6 decimals')
    await expect(page.getByTestId('admin-config-confirm')).toHaveCount(0)
  })

  await test.step('the operator sets the minimum to 150 USDT', async () => {
    await page.getByTestId('config-pledge.minUsdt').fill('150')
    await page.getByTestId('admin-config-save').click()
    const change = page.getByTestId('admin-config-confirm').getByTestId('admin-change')
    await expect(change).toHaveCount(1)
    await expect(change).toHaveAttribute('data-path', 'pledge.minUsdt')
    await expect(change).toContainText('100 USDT → 150 USDT')
    await snap(page, testInfo, 'confirm the change')
    // A double tap saves one version: no refusal of a second save against the old version beside the success.
    await doubleTapOnce(page, page.getByTestId('admin-config-confirm-save'), {
      route: api.adminConfigSave,
      how: 'dblclick',
      answer: 'Saved',
    })
    await expect(page.getByTestId('admin-config-version')).toContainText(operator.address)
    await expect(page.getByTestId('config-pledge.minUsdt')).toHaveValue('150')
  })

  await test.step('the history says who changed what', async () => {
    await page.getByTestId('admin-config-tab-history').click()
    const newest = page.getByTestId('admin-config-version-row').first()
    await expect(newest.getByTestId('admin-version-by')).toHaveText(operator.address)
    await expect(newest.getByTestId('admin-change')).toContainText('100 USDT → 150 USDT')
    await snap(page, testInfo, 'configuration history')
  })

  await test.step('a user sees the new minimum at once', async () => {
    const user = new Wallet()
    await register(user)
    const phone = await secondPhone(browser, testInfo)
    await useWallets(phone, [user])
    await phone.goto('/pledge')
    // 150 USDT at the reference price of 0.5 USDT.
    await expect(phone.getByTestId('pledge-minimum')).toHaveText('300 PLG (worth 150 USDT)')
    await phone.getByTestId('pledge-amount').fill('200')
    await phone.getByTestId('pledge-submit').click()
    await expect(toast(phone, 'The amount of the pledge cannot be less than 300PLG')).toBeVisible()
    await snap(phone, testInfo, 'the user sees the new minimum')
    await phone.context().close()
  })

  await test.step('the audit log has the change', async () => {
    await page.getByTestId('admin-nav-audit').click()
    await page.getByTestId('admin-audit-action').fill('config.')
    await page.getByTestId('admin-audit-search').click()
    await expect(page.getByTestId('admin-audit-row').first()).toHaveAttribute('data-action', 'config.save')
    await snap(page, testInfo, 'audit log')
  })
})

test('an operator approves a withdrawal under review and the user receives it on chain', async ({
  page,
  browser,
}, testInfo) => {
  // Two withdrawals through their review sheets, an on-chain send, the operator's own withdrawal topped up on chain and
  // three decisions: a long journey (about a minute on a quiet machine).
  test.setTimeout(180_000)
  // This time on a phone.
  await signInToConsole(page, operator, testInfo)

  await test.step('the operator makes USDT withdrawals from 100 USDT wait for review', async () => {
    await saveReviewThreshold(page, '100')
    await expect(toast(page, 'Saved')).toBeVisible()
    await expect(page.getByTestId('asset-USDT-review_threshold')).toHaveValue('100')
    await snap(page, testInfo, 'asset settings')
  })

  const user = new Wallet()
  const userSession = await register(user)
  const phone = await secondPhone(browser, testInfo)
  const usdt = phone.locator('[data-testid="asset-row"][data-coin="USDT"]')

  // The queue is open before the withdrawal exists: it must come by push (the live channel), not by a reload.
  await page.getByTestId('admin-nav-withdrawals').click()
  await expect(page.getByTestId('admin-withdrawals-tab-review')).toBeVisible()
  let consoleLoads = 0
  page.on('load', () => consoleLoads++)

  await test.step('the user tops up 200 USDT and asks to withdraw 150 USDT', async () => {
    // Topped up through the API (assets.spec.ts taps through a top-up).
    await topUp(user, userSession, 'USDT', 200_000_000n)
    await useWallets(phone, [user])
    await phone.goto('/assets')
    await expect(usdt.getByTestId('asset-available')).toHaveText('200')
    await usdt.getByTestId('withdraw-button').click()
    await phone.getByTestId('withdraw-amount').fill('150')
    await submitReviewed(phone.getByTestId('withdraw-submit'))
    // Over the threshold: the toast says it waits for review, not only that it was requested.
    await expect(toast(phone, 'Withdrawal requested: it is under review before it is sent')).toBeVisible()
    await openUsdtDetail(phone)
    await expect(phone.getByTestId('withdrawal-row').first()).toHaveAttribute('data-status', 'review')
    // The history shows it as one row in the same state.
    await expect(phone.locator('[data-testid="money-log-row"][data-type="withdrawal"]')).toHaveAttribute(
      'data-status',
      'review',
    )
    await snap(phone, testInfo, 'withdrawal waiting for review')
  })
  const before = await onChainBalance(user.address, 'USDT')

  const statuses = await recordAttribute(phone, '[data-testid="withdrawal-row"]', 'data-status')

  await test.step('the operator approves it in the queue, which showed it without a reload', async () => {
    const row = page.locator(`[data-testid="admin-withdrawal-row"][data-user="${user.address}"]`)
    await expect(row).toHaveAttribute('data-status', 'review')
    await expect(row.getByTestId('admin-withdrawal-amount')).toHaveText('150 USDT')
    await expect(row.getByTestId('admin-withdrawal-approvals')).toHaveText('0/1')
    expect(consoleLoads).toBe(0)
    // At 390 px the row is a card, its decision first: approve and reject on screen without scrolling sideways, each
    // figure labelled by its column.
    await expect(row.getByTestId('admin-withdrawal-amount')).toHaveAttribute('data-label', 'Amount')
    for (const button of ['approve', 'reject']) {
      const box = await row.getByTestId(`admin-withdrawal-${button}`).boundingBox()
      expect(box && box.x >= 0 && box.x + box.width <= 390, `${button} within the phone's width`).toBe(true)
    }
    const queue = page.getByTestId('admin-withdrawals')
    expect(await queue.evaluate((table) => table.scrollWidth <= (table.parentElement as HTMLElement).clientWidth)).toBe(
      true,
    )
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
    await snap(page, testInfo, 'review queue')
    await row.getByTestId('admin-withdrawal-approve').click()
    // Approving asks first, naming the amount and the wallet (not the operator's: no second question).
    const confirm = page.getByTestId('admin-confirm-dialog')
    await expect(confirm.getByTestId('admin-confirm-text')).toHaveText(`150 USDT is sent to ${user.address}.`)
    await expect(confirm.getByTestId('admin-confirm-warning')).toHaveCount(0)
    await snap(page, testInfo, 'confirm the approval')
    await doubleTapOnce(page, confirm.getByTestId('admin-confirm'), {
      route: api.adminWithdrawalApprove,
      how: 'clicks',
      answer: 'Withdrawal approved and queued for sending',
    })
    await expect(row).toHaveCount(0)
  })

  await test.step("the user's wallet receives 150 USDT less the 1 USDT fee", async () => {
    await expect(phone.getByTestId('withdrawal-row').first()).toHaveAttribute('data-status', 'confirmed', {
      timeout: 30_000,
    })
    const history = phone.locator('[data-testid="money-log-row"][data-type="withdrawal"]')
    await expect(history).toHaveAttribute('data-status', 'confirmed')
    await history.locator('summary').click()
    await expect(history.getByTestId('money-log-signature-link')).toHaveAttribute(
      'href',
      /^https:\/\/explorer\.solana\.com\/tx\/\w+\?cluster=custom&customUrl=http/,
    )
    expect(await onChainBalance(user.address, 'USDT')).toBe(before + 149_000_000n)
    // The phone never reloaded: it showed each status as the live channel brought it ("pending" may pass unseen).
    expect((await statuses.values())?.filter((status) => status !== 'pending')).toEqual(['review', 'sent', 'confirmed'])
    await snap(phone, testInfo, 'withdrawal received')
  })

  await test.step('the queue shows it confirmed', async () => {
    await page.getByTestId('admin-withdrawals-tab-confirmed').click()
    const row = page.locator(`[data-testid="admin-withdrawal-row"][data-user="${user.address}"]`)
    await expect(row).toHaveAttribute('data-status', 'confirmed')
    await expect(row.getByTestId('admin-withdrawal-approver')).toHaveAttribute('title', operator.address)
    await snap(page, testInfo, 'confirmed withdrawals')
  })

  await test.step("approving a withdrawal to the operator's own wallet asks again, saying why", async () => {
    const own = await register(operator)
    await topUp(operator, own, 'USDT', 200_000_000n)
    const asked = await callAs(own, api.withdraw.path, { coin: 'USDT', amount: '120000000' })
    expect(asked.data?.status).toBe('review')
    await page.getByTestId('admin-withdrawals-tab-review').click()
    const row = page.locator(`[data-testid="admin-withdrawal-row"][data-user="${operator.address}"]`)
    await row.getByTestId('admin-withdrawal-approve').click()
    const confirm = page.getByTestId('admin-confirm-dialog')
    await expect(confirm.getByTestId('admin-confirm-text')).toHaveText(`120 USDT is sent to ${operator.address}.`)
    await expect(confirm.getByTestId('admin-confirm-warning')).toHaveText(
      'This withdrawal pays your own wallet: approving it sends money to yourself. Ask another operator to review it if you can.',
    )
    await expect(confirm.getByTestId('admin-confirm')).toBeDisabled()
    await snap(page, testInfo, 'approval to the own wallet')
    await confirm.getByTestId('admin-confirm-acknowledge').check()
    await confirm.getByTestId('admin-confirm').click()
    await expect(toast(page, 'Withdrawal approved and queued for sending')).toBeVisible()
    await expect(row).toHaveCount(0)
  })

  await test.step('a rejected withdrawal comes back to the user with the reason', async () => {
    // Reviews from 10 USDT now (stricter: one admin's decision), so the user's next 40 USDT waits for review.
    await saveReviewThreshold(page, '10')
    await expect(toast(page, 'Saved')).toBeVisible()
    await phone.goto('/assets')
    await usdt.getByTestId('withdraw-button').click()
    await phone.getByTestId('withdraw-amount').fill('40')
    await submitReviewed(phone.getByTestId('withdraw-submit'))
    await expect(toast(phone, 'Withdrawal requested: it is under review before it is sent')).toBeVisible()
    await openUsdtDetail(phone)
    const newest = phone.getByTestId('withdrawal-row').first()
    await expect(newest).toHaveAttribute('data-status', 'review')

    await page.getByTestId('admin-nav-withdrawals').click()
    const row = page.locator(`[data-testid="admin-withdrawal-row"][data-user="${user.address}"]`)
    await expect(row.getByTestId('admin-withdrawal-amount')).toHaveText('40 USDT')
    await row.getByTestId('admin-withdrawal-reject').click()
    await page.getByTestId('admin-reason').fill('The destination wallet is under a compliance check')
    await page.getByTestId('admin-reason-confirm').click()
    await expect(toast(page, "Withdrawal rejected; the amount is back in the user's balance")).toBeVisible()

    await expect(newest).toHaveAttribute('data-status', 'rejected', { timeout: 30_000 })
    await expect(newest.getByTestId('withdrawal-reason')).toHaveText(
      'Reason: The destination wallet is under a compliance check',
    )
    const rejected = phone.locator('[data-testid="money-log-row"][data-type="withdrawal"]').first()
    await expect(rejected).toHaveAttribute('data-status', 'rejected')
    await rejected.locator('summary').click()
    await expect(rejected.getByTestId('money-log-reason')).toHaveText(
      'Reason: The destination wallet is under a compliance check',
    )
    await snap(phone, testInfo, 'rejected withdrawal with its reason')
  })
  await phone.context().close()
})

/** A 1×1 PNG: the smallest image the upload accepts. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
)

test('an operator looks a user up, adjusts the balance, revokes the sessions and publishes a notice', async ({
  page,
  browser,
  cspViolations,
}, testInfo) => {
  const user = new Wallet()
  await register(user)
  const phone = await secondPhone(browser, testInfo)
  await useWallets(phone, [user])
  await phone.goto('/assets')
  const usdt = phone.locator('[data-testid="asset-row"][data-coin="USDT"]')
  await expect(usdt.getByTestId('asset-available')).toHaveText('0')

  await page.setViewportSize({ width: 1280, height: 900 })
  await signInToConsole(page, operator, testInfo)

  await test.step('the operator finds the user by the start of the address', async () => {
    await page.getByTestId('admin-nav-users').click()
    await page.getByTestId('admin-user-search').fill(user.address.slice(0, 8))
    await page.getByTestId('admin-user-search-submit').click()
    await page.getByTestId('admin-user-result').first().getByRole('button').click()
    await expect(page.getByTestId('admin-user-address')).toHaveText(user.address)
    await expect(page.getByTestId('admin-user-balance-USDT')).toHaveText('0 available · 0 locked')
    // One from registering through the API, one from the phone's sign-in.
    await expect(page.getByTestId('admin-user-active-sessions')).toHaveText('2')
  })

  await test.step('a credit of 25 USDT needs a reason, then lands in the balance and the ledger', async () => {
    await page.getByTestId('admin-user-adjust').click()
    await page.getByTestId('admin-adjust-coin').selectOption('USDT')
    await page.getByTestId('admin-adjust-amount').fill('25')
    await page.getByTestId('admin-adjust-submit').click()
    await expect(page.getByTestId('admin-adjust-error')).toHaveText('Please give a reason')
    await page.getByTestId('admin-adjust-reason').fill('Refund of a lost top-up')
    await snap(page, testInfo, 'balance adjustment')
    await page.getByTestId('admin-adjust-submit').click()
    await expect(toast(page, 'Adjustment applied to the balance')).toBeVisible()
    await expect(page.getByTestId('admin-user-balance-USDT')).toHaveText('25 available · 0 locked')
    await expect(page.getByTestId('admin-user-ledger-row').first()).toContainText('25')
    await page.getByTestId('admin-user-tab-adjustments').click()
    await expect(page.getByTestId('admin-adjustment-row').first()).toHaveAttribute('data-status', 'applied')
    await snap(page, testInfo, 'user after the adjustment')
    await phone.reload()
    await expect(usdt.getByTestId('asset-available')).toHaveText('25')
  })

  await test.step("the user's quick-trade order shows on the orders tab", async () => {
    await phone.goto('/quick-trade/buy')
    await phone.getByTestId('order-price-input').fill('0.5')
    await phone.getByTestId('order-amount-input').fill('10')
    await submitReviewed(phone.getByTestId('order-submit'))
    await expect(toast(phone, 'Order placed')).toBeVisible()
    const orderSn = (await phone.getByTestId('order-row').first().getAttribute('data-sn')) ?? ''
    expect(orderSn).not.toBe('')
    await page.getByTestId('admin-user-tab-orders').click()
    const row = page.getByTestId('admin-user-orders-row')
    await expect(row).toHaveCount(1)
    for (const text of [orderSn, 'Buy', 'Pending', '0.5 USDT', '10 PLG', '0 PLG']) await expect(row).toContainText(text)
    await snap(page, testInfo, 'user orders')
    await page.getByTestId('admin-user-orders-status').selectOption('completed')
    await expect(row).toHaveCount(0)
  })

  await test.step("revoking the user's sessions ends them", async () => {
    await page.getByTestId('admin-user-revoke-all').click()
    await page.getByTestId('admin-reason').fill('Suspicious sign-in')
    await page.getByTestId('admin-reason-confirm').click()
    await expect(toast(page, 'The sessions were revoked')).toBeVisible()
    await expect(page.getByTestId('admin-user-active-sessions')).toHaveText('0')
  })

  await test.step('the operator publishes an event notice with an uploaded image', async () => {
    await page.getByTestId('admin-nav-content').click()
    await page.getByTestId('admin-notice-new').click()
    await page.getByTestId('admin-notice-save').click()
    await expect(page.getByTestId('admin-notice-error')).toHaveText('The English text is required')
    await page.getByTestId('admin-notice-title').fill('Console notice')
    // The body in the WYSIWYG editor: typed with the toolbar, and a paste from a web page with its styles and script.
    const body = page.getByTestId('admin-notice-body')
    const tool = (name: string) => page.getByTestId(`admin-notice-body-tool-${name}`)
    await body.click()
    await page.keyboard.type('Published from the console, ')
    await tool('bold').click()
    await page.keyboard.type('in bold')
    await tool('bold').click()
    await page.keyboard.press('Enter')
    await tool('bullets').click()
    await page.keyboard.type('First point')
    await page.keyboard.press('Enter')
    await page.keyboard.press('Enter')
    const before = cspViolations.length
    await body.evaluate((area) => {
      const clipboardData = new DataTransfer()
      clipboardData.setData(
        'text/html',
        '<p style="color:red" onclick="alert(1)"><i>Pasted</i> <span class="x">text</span><script>alert(1)</script></p>',
      )
      area.dispatchEvent(new ClipboardEvent('paste', { clipboardData, bubbles: true, cancelable: true }))
    })
    // Chromium reports the paste's inline handler as refused when the editor reads the paste with DOMParser (an inert
    // document: nothing in it runs, and the markup below keeps no attribute). That report is the paste's and only it is
    // taken out: any other violation still fails the journey.
    await expect.poll(() => cspViolations.length).toBeGreaterThan(before)
    const pasted = cspViolations.splice(before)
    expect(pasted.every((violation) => violation.startsWith('script-src-attr refused inline'))).toBe(true)
    await page.getByTestId('admin-notice-image').setInputFiles({ name: 'dot.png', mimeType: 'image/png', buffer: PNG })
    await expect(toast(page, 'Image uploaded')).toBeVisible()
    await expect(body.locator('img[src^="/uploads/"]')).toHaveAttribute('src', /^\/uploads\/[^"]+\.png$/)
    // What the editor holds is only what the app shows: allowed tags (how the browser's editing nests them is its own
    // business), no attribute but the image's src and alt.
    const markup = await body.evaluate((area) =>
      Array.from(area.querySelectorAll('*'), (element) =>
        [element.localName, ...Array.from(element.attributes, (attribute) => attribute.name)].join(' '),
      ),
    )
    expect(new Set(markup)).toEqual(new Set(['p', 'strong', 'ul', 'li', 'em', 'img src alt']))
    await expect(body.locator('strong')).toHaveText('in bold')
    await expect(body.locator('li')).toHaveText('First point')
    await expect(body.locator('em')).toHaveText('Pasted')
    await page.getByTestId('admin-notice-visible').check()
    await page.getByTestId('admin-notice-event').check()
    await snap(page, testInfo, 'notice editor')
    await page.getByTestId('admin-notice-save').click()
    await expect(page.getByTestId('admin-notice-editor')).toHaveCount(0)
    const row = page.getByTestId('admin-notice-row').filter({ hasText: 'Console notice' })
    await expect(row).toHaveAttribute('data-visible', 'true')
    await snap(page, testInfo, 'notices')
  })

  await test.step('a user sees the notice and its image', async () => {
    await phone.goto('/')
    await expect(phone.getByTestId('event-notice')).toContainText('Console notice')
    await phone.goto('/notice')
    await phone.getByTestId('notice-item').filter({ hasText: 'Console notice' }).click()
    // The editor's formatting, as the operator saw it; nothing of the paste's script or styles.
    const detail = phone.locator('.notice-body')
    await expect(detail.locator('strong')).toHaveText('in bold')
    await expect(detail.locator('li')).toHaveText('First point')
    await expect(detail.locator('em')).toHaveText('Pasted')
    await expect(detail).toContainText('Pasted text')
    await expect(detail.locator('[style], span, script')).toHaveCount(0)
    const image = phone.locator('img[src^="/uploads/"]')
    await expect(image).toBeVisible()
    expect(await image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1)
    await snap(phone, testInfo, 'the user reads the notice')
  })
  await phone.context().close()
})
