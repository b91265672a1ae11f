import type { Page, TestInfo } from '@playwright/test'
import { adminWallet, expect, snap, toast, useWallets, type Wallet } from './fixtures.ts'

/** The servers' admin (on their ADMIN_ADDRESSES): the console journeys' operator (admin.spec.ts, four-eyes.spec.ts). */
export const operator = adminWallet()

/** Opens the console and signs in with `operator`'s wallet as the page's demo wallet. */
export async function signInToConsole(page: Page, operator: Wallet, testInfo: TestInfo) {
  await useWallets(page, [operator])
  await page.goto('/admin')
  await expect(page.getByTestId('admin-login-address')).toHaveText(operator.address)
  await snap(page, testInfo, 'console sign-in')
  await page.getByTestId('admin-sign-in').click()
  await expect(toast(page, 'Signed in to the operator console')).toBeVisible()
  await expect(page.getByTestId('admin-role')).toHaveText('Admin')
  // The console never runs the user login: no bind dialog for an operator wallet that is not a user.
  await expect(page.getByTestId('bind-dialog')).toHaveCount(0)
}

/**
 * Saves USDT's review threshold (whole USDT) on the console's asset settings, after the review of what changes (the
 * same as the business configuration's); the toast is the caller's to check.
 */
export async function saveReviewThreshold(page: Page, usdt: string) {
  await page.getByTestId('admin-nav-config').click()
  await page.getByTestId('admin-config-tab-assets').click()
  const before = await page.getByTestId('asset-USDT-review_threshold').inputValue()
  await page.getByTestId('asset-USDT-review_threshold').fill(usdt)
  await page.getByTestId('asset-USDT-save').click()
  const confirm = page.getByTestId('asset-USDT-confirm')
  const format = (text: string) => (text === '' ? 'none' : `${Number(text).toLocaleString('en-US')} USDT`)
  await expect(confirm.getByTestId('admin-change')).toHaveText(`Review from ${format(before)} → ${format(usdt)}`)
  await confirm.getByTestId('asset-USDT-confirm-save').click()
}
