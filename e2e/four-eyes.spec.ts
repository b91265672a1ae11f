import { api } from '@solpledge/contract'
import { operator, saveReviewThreshold, signInToConsole } from './console.ts'
import {
  addDays,
  callAs,
  expect,
  register,
  secondPhone,
  serverToday,
  settleThrough,
  snap,
  test,
  toast,
  useWallets,
  Wallet,
} from './fixtures.ts'
import { topUp } from './top-up.ts'

/**
 * The operator console with two admins (docs/admin.md, four eyes), on a server of its own: the first journey adds the
 * second admin, after which one admin alone only proposes what could pay out more, so the one-admin journeys
 * (admin.spec.ts) cannot share this server. The journeys run in order.
 */
test.use({ ownServer: 'four-eyes' })
/** The second admin, added by the first in the journey below. */
const secondAdmin = new Wallet()
test.describe.configure({ mode: 'serial', timeout: 120_000 })

test('with a second admin, an adjustment and a weaker review threshold wait for the other admin', async ({
  page,
  browser,
}, testInfo) => {
  const user = new Wallet()
  await register(user)
  const second = secondAdmin
  await page.setViewportSize({ width: 1280, height: 900 })
  await signInToConsole(page, operator, testInfo)

  await test.step('the only admin adds a second admin alone', async () => {
    await page.getByTestId('admin-nav-config').click()
    await page.getByTestId('admin-config-tab-operators').click()
    await page.getByTestId('admin-operator-address').fill(second.address)
    await page.getByTestId('admin-operator-role').selectOption('admin')
    await page.getByTestId('admin-operator-save').click()
    await expect(toast(page, 'Saved')).toBeVisible()
  })

  await test.step('now an adjustment and raising the review threshold are only proposed', async () => {
    await page.getByTestId('admin-nav-users').click()
    await page.getByTestId('admin-user-search').fill(user.address.slice(0, 8))
    await page.getByTestId('admin-user-search-submit').click()
    await page.getByTestId('admin-user-result').first().getByRole('button').click()
    await page.getByTestId('admin-user-adjust').click()
    await page.getByTestId('admin-adjust-coin').selectOption('USDT')
    await page.getByTestId('admin-adjust-amount').fill('5')
    await page.getByTestId('admin-adjust-reason').fill('Goodwill for a delayed payout')
    await page.getByTestId('admin-adjust-submit').click()
    await expect(toast(page, 'Adjustment recorded; a second, different admin must approve it')).toBeVisible()
    await expect(page.getByTestId('admin-user-balance-USDT')).toHaveText('0 available · 0 locked')
    await saveReviewThreshold(page, '20000')
    await expect(
      toast(page, 'Proposed: a second, different admin must approve this change before it applies'),
    ).toBeVisible()
    await page.getByTestId('admin-config-tab-changes').click()
    const mine = page.locator('[data-testid="admin-change-row"][data-status="pending"]').first()
    await expect(mine.getByTestId('admin-change-text')).toHaveText('Review from: 10,000 USDT → 20,000 USDT')
    await expect(mine.getByTestId('admin-change-approve')).toBeDisabled()
    await snap(page, testInfo, 'a change waiting for the second admin')
  })

  const other = await secondPhone(browser, testInfo)
  await other.setViewportSize({ width: 1280, height: 900 })
  await signInToConsole(other, second, testInfo)

  await test.step('the second admin confirms both', async () => {
    await expect(other.getByTestId('admin-four-eyes-warning')).toHaveCount(0)
    await other.getByTestId('admin-nav-users').click()
    const adjustment = other.getByTestId('admin-pending-adjustments').getByTestId('admin-adjustment-row').first()
    await adjustment.getByTestId('admin-adjustment-approve').click()
    const confirm = other.getByTestId('admin-confirm-dialog')
    await expect(confirm.getByTestId('admin-confirm-text')).toHaveText(
      `5 USDT to the available balance of ${user.address}.`,
    )
    await confirm.getByTestId('admin-confirm').click()
    await expect(toast(other, 'Adjustment applied to the balance')).toBeVisible()

    await other.getByTestId('admin-nav-config').click()
    await other.getByTestId('admin-config-tab-changes').click()
    const change = other.locator('[data-testid="admin-change-row"][data-status="pending"]').first()
    await change.getByTestId('admin-change-approve').click()
    await expect(confirm.getByTestId('admin-confirm-text')).toContainText('Review from: 10,000 USDT → 20,000 USDT')
    await snap(other, testInfo, 'the second admin confirms the change')
    await confirm.getByTestId('admin-confirm').click()
    await expect(toast(other, 'Change applied')).toBeVisible()
    await other.getByTestId('admin-config-tab-assets').click()
    await expect(other.getByTestId('asset-USDT-review_threshold')).toHaveValue('20000')
  })
  await other.context().close()
})

/** The referral rewards a settled day paid (all of this server's: the journey's referrer is the only one to earn). */
async function referralRewards(day: string) {
  const { list } = (await settleThrough(day)) as unknown as {
    list: { day: string; totals: { type: string; amount: string }[] }[]
  }
  return list.find((d) => d.day === day)?.totals.find((t) => t.type === 'referral_reward')?.amount ?? '0'
}

test('admin A proposes a higher referral rate, admin B approves, users see the notice, and it applies only after the notice period', async ({
  page,
  browser,
}, testInfo) => {
  // Two top-ups on chain, two consoles, a phone and two settled days.
  test.setTimeout(180_000)
  // A referrer who stakes 400 PLG (200 USDT: the referral guard pays referrers who stake) and a member who stakes 900
  // PLG for 30 days at ×1.06: 31.8 PLG of output a day, of which the referrer's level-1 reward is 10 % today.
  const referrer = new Wallet()
  const referrerSession = await register(referrer)
  const member = new Wallet()
  const memberSession = await register(member, referrer.address)
  for (const [wallet, session, amount] of [
    [referrer, referrerSession, 400n],
    [member, memberSession, 900n],
  ] as const) {
    await topUp(wallet, session, 'PLG', amount * 1_000_000_000n)
    const stake = await callAs(session, api.pledgeStake.path, { amount: String(amount * 1_000_000_000n), days: 30 })
    expect(stake.msg).toBe('Staking Successful')
  }
  const today = await serverToday(memberSession)

  await page.setViewportSize({ width: 1280, height: 900 })
  await signInToConsole(page, operator, testInfo)

  await test.step('admin A raises the level-1 referral rate from 10 % to 15 %: only proposed', async () => {
    await page.getByTestId('admin-nav-config').click()
    await page.getByTestId('config-referralRewards[0].rateBps').fill('15')
    await page.getByTestId('admin-config-save').click()
    const confirm = page.getByTestId('admin-config-confirm')
    await expect(confirm.getByTestId('admin-change')).toHaveText(
      'Referral rewards 1 · Rate (% of the output) 10 % → 15 %',
    )
    // The review says what a raise of payouts means before anything is sent.
    await expect(confirm.getByTestId('admin-change-effect')).toHaveAttribute('data-raises', 'true')
    await snap(page, testInfo, 'a raise of payouts under review')
    await confirm.getByTestId('admin-config-confirm-save').click()
    await expect(
      toast(page, 'Proposed: a second, different admin must approve this change before it applies'),
    ).toBeVisible()
    // Nothing changed: the form shows the rate in force.
    await expect(page.getByTestId('config-referralRewards[0].rateBps')).toHaveValue('10')
  })

  const other = await secondPhone(browser, testInfo)
  await other.setViewportSize({ width: 1280, height: 900 })
  await signInToConsole(other, secondAdmin, testInfo)

  await test.step('admin B approves it: scheduled for the end of the 24-hour notice period', async () => {
    await other.getByTestId('admin-nav-config').click()
    await other.getByTestId('admin-config-tab-changes').click()
    const row = other.locator('[data-testid="admin-change-row"][data-kind="config.save"][data-status="pending"]')
    await expect(row.getByTestId('admin-change-text')).toHaveText(
      'Referral rewards 1 · Rate (% of the output): 10 % → 15 %',
    )
    await row.getByTestId('admin-change-approve').click()
    const confirm = other.getByTestId('admin-confirm-dialog')
    await expect(confirm.getByTestId('admin-confirm-text')).toContainText('takes effect only after the notice period')
    await confirm.getByTestId('admin-confirm').click()
    await expect(toast(other, 'Scheduled: this change takes effect at')).toBeVisible()
    await other.getByTestId('admin-changes-tab-scheduled').click()
    const scheduled = other.locator(
      '[data-testid="admin-change-row"][data-kind="config.save"][data-status="scheduled"]',
    )
    await expect(scheduled.getByTestId('admin-change-effective')).toContainText('Raises payouts')
    await expect(scheduled.getByTestId('admin-change-cancel')).toBeEnabled()
    await snap(other, testInfo, 'the approved change waits for its notice period')
  })

  await test.step('users see what changes and when', async () => {
    const phone = await secondPhone(browser, testInfo)
    await useWallets(phone, [member])
    await phone.goto('/notice')
    const notice = phone.locator('[data-testid="economic-notice"][data-status="scheduled"]')
    await expect(notice.getByTestId('economic-notice-item')).toHaveText('Referral reward, level 1: 10% → 15%')
    await expect(notice.getByTestId('economic-notice-when')).toContainText('Takes effect')
    await snap(phone, testInfo, 'the user reads the announced change')
    await phone.context().close()
  })

  await test.step('time moves: a day due before the end of the notice pays 10 %, the next one 15 %', async () => {
    // The settlement of a day applies the changes whose notice ended by the day's due moment (00:00 UTC): tomorrow's
    // comes before the end of the 24 hours, the day after's after it. The local chain settles future days.
    expect(await referralRewards(addDays(today, 1))).toBe('3180000000')
    await page.reload()
    await expect(page.getByTestId('config-referralRewards[0].rateBps')).toHaveValue('10')
    expect(await referralRewards(addDays(today, 2))).toBe('4770000000')
    await page.reload()
    await expect(page.getByTestId('config-referralRewards[0].rateBps')).toHaveValue('15')
    await snap(page, testInfo, 'the raise in force after its notice period')
  })
  await other.context().close()
})
