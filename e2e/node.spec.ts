import { api } from '@solpledge/contract'
import { callAs, doubleTapOnce, expect, newUser, snap, test } from './fixtures.ts'
import { topUp } from './top-up.ts'

test.describe('nodes', () => {
  test('buys a junior node from the USDT balance and sees it in My Node', async ({ page }, testInfo) => {
    const { wallet, session } = await newUser(page)
    // The faucet's test tokens in the wallet, then (below) a 600 USDT top-up, through the API: assets.spec.ts taps
    // through both.
    expect((await callAs(session, api.faucet.path, {})).code).toBe(1)

    // Nothing in the balance yet, 1,000 USDT in the wallet: the review starts on paying on chain, the one way that can
    // pay; the balance, chosen by hand, disables Confirm and says why instead of refusing after the tap.
    await page.goto('/node')
    await page.locator('[data-testid="node-level"][data-level="junior"]').getByTestId('node-buy').click()
    await expect(page.getByTestId('node-pay-chain')).toHaveAttribute('aria-selected', 'true')
    await expect(page.getByTestId('review-confirm')).toBeEnabled()
    await expect(page.getByTestId('review-blocked')).toHaveCount(0)
    await page.getByTestId('node-pay-balance').click()
    await expect(page.getByTestId('review-confirm')).toBeDisabled()
    await expect(page.getByTestId('review-blocked')).toHaveText(
      'Your available balance (0 USDT) is less than the price of 500 USDT: pay on chain or top up first.',
    )
    await snap(page, testInfo, 'balance cannot pay')
    await page.getByTestId('review-cancel').click()
    await expect(page.getByTestId('review')).toHaveCount(0)

    await topUp(wallet, session, 'USDT', 600_000_000n, { faucet: false })
    await page.goto('/assets')
    const usdt = page.locator('[data-testid="asset-row"][data-coin="USDT"]')
    await expect(usdt.getByTestId('asset-available')).toHaveText('600')

    await page.getByTestId('bottom-nav').getByText('Node').click()
    await expect(page.getByTestId('page-title')).toHaveText('Node')
    await expect(page.getByTestId('my-nodes')).toBeVisible()
    await expect(page.getByTestId('my-node')).toHaveCount(0)
    const junior = page.locator('[data-testid="node-level"][data-level="junior"]')
    const soldBefore = await junior.textContent()
    await snap(page, testInfo, 'node levels')
    await junior.getByTestId('node-buy').click()
    // The review sheet: price, what the node brings, the balances; paid from the balance now that it holds the price.
    await expect(page.getByTestId('review')).toBeVisible()
    await expect(page.getByTestId('node-confirm-price')).toHaveText('500 USDT')
    await expect(page.getByTestId('node-pay-balance')).toHaveAttribute('aria-selected', 'true')
    await snap(page, testInfo, 'confirm purchase')
    // A double tap buys one node: no 'You already hold a node of this level' beside the success.
    await doubleTapOnce(page, page.getByTestId('review-confirm'), {
      route: api.nodeBuy,
      how: 'dblclick',
      answer: 'Node purchased.',
    })
    await expect(page.getByTestId('my-node')).toHaveCount(1)
    await expect(junior).not.toHaveText(soldBefore ?? '')

    // One junior node per user: the level now says Owned instead of offering a second purchase (the server refuses
    // one anyway: apps/server/test/nodes.test.ts), and its supply reads "1 / cap", not "Sold 1 / cap" under "Sold".
    await expect(junior.getByTestId('node-buy')).toHaveText('Owned')
    await expect(junior.getByTestId('node-buy')).toBeDisabled()
    await expect(junior.getByTestId('node-level-sold')).toHaveText(/^[\d,]+ \/ [\d,]+$/)
    await expect(page.getByTestId('my-node')).toHaveCount(1)
    await snap(page, testInfo, 'my node')

    await page.goto('/assets')
    await expect(usdt.getByTestId('asset-available')).toContainText('100')
  })

  test('a node paid on chain but refused when the payment arrives: the reason stays shown, the money is in the balance', async ({
    page,
  }, testInfo) => {
    const { wallet, session } = await newUser(page)
    // 500 USDT topped up through the API (assets.spec.ts taps through it); 500 USDT left in the wallet.
    await topUp(wallet, session, 'USDT', 500_000_000n)
    const usdt = page.locator('[data-testid="asset-row"][data-coin="USDT"]')

    // The payment intent is made while the user holds no junior node; before the wallet pays it, the same user buys
    // one from the balance (as from another tab), so the node cannot be made when the payment arrives.
    await page.route('**/api/assets/intent/create', async (route) => {
      const response = await route.fetch()
      const bought = await callAs(session, api.nodeBuy.path, { level: 'junior', pay: 'balance' })
      expect(bought.code).toBe(1)
      await route.fulfill({ response })
    })
    await page.goto('/node')
    await page.locator('[data-testid="node-level"][data-level="junior"]').getByTestId('node-buy').click()
    await page.getByTestId('node-pay-chain').click()
    await page.getByTestId('review-confirm').click()
    const reason = 'You already hold a node of this level; the payment is in your asset balance'
    await expect(page.getByTestId('toast').filter({ hasText: reason })).toBeVisible({ timeout: 30_000 })
    await expect(page.getByTestId('review')).toHaveCount(0)
    await expect(page.getByTestId('node-payment-refusal')).toContainText(reason)
    await expect(page.getByTestId('my-node')).toHaveCount(1)
    await expect(page.getByTestId('toast')).toHaveCount(0)
    await snap(page, testInfo, 'refused after payment')

    // 500 topped up, 500 for the node from the balance, the refused 500 back in the balance.
    await page.goto('/assets')
    await expect(usdt.getByTestId('asset-available')).toHaveText('500')
  })
})
