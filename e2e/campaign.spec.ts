import fs from 'node:fs'
import type { Page, TestInfo } from '@playwright/test'
import { api, parseCsv } from '@solpledge/contract'
import { PLG } from '@solpledge/test-fixtures'
import { seriousViolations } from './axe.ts'
import {
  adminWallet,
  callAs,
  expect,
  expectLoggedIn,
  goInApp,
  register,
  secondPhone,
  snap,
  test,
  toast,
  useWallets,
  Wallet,
} from './fixtures.ts'
import { topUp } from './top-up.ts'

/**
 * Campaigns (docs/admin.md#campaigns): on a server of their own, since a running campaign pops up for every user of
 * the server it runs on.
 */
test.use({ ownServer: 'campaign' })
test.describe.configure({ timeout: 180_000 })

/** Stakes `plg` whole PLG for 30 days through the API (0.5 USDT a PLG at the reference price: power = half of it). */
async function stake(wallet: Wallet, session: Record<string, string>, plg: bigint) {
  await topUp(wallet, session, 'PLG', plg * PLG)
  const staked = await callAs(session, api.pledgeStake.path, { amount: String(plg * PLG), days: 30 })
  expect(staked.msg).toBe('Staking Successful')
}

/** A datetime-local value `minutes` from now in the browser's time zone. */
const localTime = (page: Page, minutes: number) =>
  page.evaluate((minutes) => {
    const date = new Date(Date.now() + minutes * 60_000)
    const pad = (n: number) => String(n).padStart(2, '0')
    return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`
  }, minutes)

async function signInToConsole(page: Page) {
  await useWallets(page, [adminWallet()])
  await page.goto('/admin')
  await page.getByTestId('admin-sign-in').click()
  await expect(toast(page, 'Signed in to the operator console')).toBeVisible()
}

test("a campaign made in the console pops up once for a user, moves with a direct member's stake and lists the user as qualified", async ({
  page,
  browser,
}, testInfo: TestInfo) => {
  // A leader with two direct members: the first stakes 400 PLG (200 USDT of power, the largest leg), the second will
  // stake 200 PLG, which adds 100 USDT to the leader's small-market fuel.
  const leader = new Wallet()
  await register(leader)
  const first = new Wallet()
  await stake(first, await register(first, leader.address), 400n)
  const second = new Wallet()
  const secondSession = await register(second, leader.address)
  const found: string[] = []

  await test.step('the operator creates a campaign with one tier: 2 direct referrals and 100 USDT of fuel, a node', async () => {
    await signInToConsole(page)
    await page.getByTestId('admin-nav-content').click()
    await page.getByTestId('admin-content-tab-campaigns').click()
    await page.getByTestId('admin-campaign-new').click()
    const editor = page.getByTestId('admin-campaign-editor')
    await editor.getByTestId('admin-campaign-title').fill('Bangkok conference')
    // The body in the notice editor: bold from its toolbar.
    await editor.getByTestId('admin-campaign-body').click()
    await page.keyboard.type('Reach a tier, ')
    await editor.getByTestId('admin-campaign-body-tool-bold').click()
    await page.keyboard.type('win a node')
    await editor.getByTestId('admin-campaign-body-tool-bold').click()
    await page.keyboard.type('.')
    await editor.getByTestId('admin-campaign-starts').fill(await localTime(page, -5))
    await editor.getByTestId('admin-campaign-ends').fill(await localTime(page, 24 * 60))
    // The spec's five tiers to start from; one is kept.
    await expect(editor.getByTestId('admin-campaign-tier')).toHaveCount(5)
    for (let i = 0; i < 4; i++) await editor.getByRole('button', { name: 'Remove tier 2' }).click()
    const tier = editor.getByTestId('admin-campaign-tier')
    await expect(tier).toHaveCount(1)
    await tier.getByTestId('admin-tier-direct').fill('2')
    await tier.getByTestId('admin-tier-fuel').fill('100')
    await tier.getByTestId('admin-tier-kind').selectOption('node')
    await tier.getByTestId('admin-tier-level').selectOption('junior')
    found.push(...(await seriousViolations(page, 'campaign editor')))
    await snap(page, testInfo, 'campaign editor')
    await editor.getByTestId('admin-campaign-save').click()
    await expect(toast(page, 'Saved')).toBeVisible()
    await expect(page.getByTestId('admin-campaign-row')).toHaveAttribute('data-status', 'running')
  })

  const phone = await secondPhone(browser, testInfo)
  await test.step('the leader sees its pop-up once, then the progress page', async () => {
    await useWallets(phone, [leader])
    await phone.goto('/')
    await expectLoggedIn(phone, leader)
    const popup = phone.getByTestId('campaign-popup')
    await expect(popup).toContainText('Bangkok conference')
    await expect(popup.locator('strong')).toHaveText('win a node')
    found.push(...(await seriousViolations(phone, 'campaign pop-up')))
    await snap(phone, testInfo, 'campaign pop-up')
    await popup.getByTestId('campaign-popup-progress').click()
    await expect(phone).toHaveURL(/\/campaign$/)
    const tier = phone.getByTestId('campaign-tier')
    await expect(tier).toHaveAttribute('data-reached', 'false')
    await expect(tier.getByTestId('campaign-direct')).toContainText('2 / 2')
    await expect(tier.getByTestId('campaign-fuel')).toContainText('0 / 100')
    // Seen (kept per campaign on the device): back home it does not open again, nor after a reload.
    await goInApp(phone, '/')
    await expect(phone.getByTestId('campaign-entry')).toBeVisible()
    await expect(popup).toHaveCount(0)
    await phone.reload()
    await expectLoggedIn(phone, leader)
    await expect(phone.getByTestId('campaign-entry')).toBeVisible()
    await expect(popup).toHaveCount(0)
  })

  await test.step("the second member's stake moves the leader's fuel to the tier on the open page, pushed", async () => {
    await phone.getByTestId('campaign-entry').click()
    const tier = phone.getByTestId('campaign-tier')
    await expect(tier.getByTestId('campaign-fuel')).toContainText('0 / 100')
    await stake(second, secondSession, 200n)
    // The page does not poll: the stake's `team` event to the leader makes it read the figures again.
    await expect(tier.getByTestId('campaign-fuel')).toContainText('100 / 100')
    await expect(tier).toHaveAttribute('data-reached', 'true')
    await expect(phone.getByTestId('campaign-result')).toHaveText('You have reached tier 1')
    found.push(...(await seriousViolations(phone, '/campaign')))
    await snap(phone, testInfo, 'campaign progress')
  })

  await test.step('the console lists the leader as qualified and exports the list', async () => {
    await page.getByTestId('admin-campaign-qualifiers').click()
    const row = page.locator(`[data-testid="admin-qualifier-row"][data-address="${leader.address}"]`)
    await expect(row).toBeVisible()
    found.push(...(await seriousViolations(page, 'campaign qualifiers')))
    const csv = page.waitForEvent('download')
    await page.getByTestId('admin-qualifiers-export').click()
    expect((await csv).suggestedFilename()).toBe('solpledge-campaign-qualifiers.csv')
    const [header, ...lines] = parseCsv(fs.readFileSync((await (await csv).path()) as string, 'utf8'))
    expect(header).toEqual(api.adminCampaignQualifiersCsv.csv?.columns)
    expect(lines.map((line) => line.slice(1))).toEqual([[leader.address, '2', '100', '1', 'node junior', '']])
  })
  expect(found).toEqual([])
  await phone.context().close()
})
