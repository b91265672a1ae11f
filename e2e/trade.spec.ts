import type { Page } from '@playwright/test'
import { api } from '@solpledge/contract'
import { PLG, USDT } from '@solpledge/test-fixtures'
import {
  callAs,
  doubleTapOnce,
  expect,
  keepReceipts,
  liveFrames,
  openReview,
  quiet,
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

test.use({ ownServer: 'trade' })

/** Opens a side of the quick-trade screen signed in, with the market loaded. */
async function openTrade(page: Page, side: 'buy' | 'sell') {
  await page.goto(`/quick-trade/${side}`)
  await expect(page.getByTestId('page-title')).toHaveText('Quick trade')
  await expect(page.getByTestId('order-form')).toHaveAttribute('data-side', side)
}

/** Fills the order form and submits it. */
async function submitOrder(page: Page, price: string, amount: string) {
  await page.getByTestId('order-price-input').fill(price)
  await page.getByTestId('order-amount-input').fill(amount)
  await page.getByTestId('order-submit').click()
}

test.describe('quick trade and swap', () => {
  // One journey on the one market of its own server: A sells PLG, B buys part of it, A cancels the rest; then B swaps.
  test('sell, partial fill, cancel with confirmation, chart and swap', async ({ page, browser }, testInfo) => {
    test.setTimeout(240_000)
    const a = new Wallet()
    const b = new Wallet()
    const sessionA = await register(a)
    const sessionB = await register(b)
    await topUp(a, sessionA, 'PLG', 100n * PLG)
    await topUp(b, sessionB, 'USDT', 50n * USDT)
    await useWallets(page, [a])
    const pageB = await secondPhone(browser, testInfo)
    await useWallets(pageB, [b])

    const sellerOrder = page.getByTestId('order-row').first()

    await test.step('before any trade the market shows the reference price and an empty chart', async () => {
      // An empty book cannot fill a swap: Swap says so and is disabled before anything is typed.
      await page.goto('/swap')
      await expect(page.getByTestId('swap-depth')).toHaveText(
        'There are no orders on the book to swap for USDT yet: place a limit order in Quick trade instead.',
      )
      await expect(page.getByTestId('swap-submit')).toBeDisabled()
      await openTrade(page, 'sell')
      await expect(page.getByTestId('market-price')).toHaveText('0.5')
      await expect(page.getByTestId('market-price')).toHaveAttribute('data-source', 'reference')
      await expect(page.getByTestId('trend-chart')).toHaveAttribute('data-candles', '0')
      await expect(page.getByTestId('trend-chart')).toContainText('No trades in this interval yet.')
      await expect(page.getByTestId('book-ask')).toHaveCount(0)
      await expect(page.getByTestId('order-available')).toHaveText('Available: 100 PLG')
    })

    await test.step('the order form refuses what the market does not accept', async () => {
      const submit = page.getByTestId('order-submit')
      await submit.click()
      await expect(toast(page, 'Please enter the price')).toBeVisible()
      await submitOrder(page, '0.60005', '20')
      await expect(toast(page, 'The price must be a multiple of 0.0001 USDT')).toBeVisible()
      await submitOrder(page, '0.6', '')
      await expect(toast(page, 'Please enter the amount')).toBeVisible()
      await submitOrder(page, '0.6', '1.005')
      await expect(toast(page, 'The amount must be a multiple of 0.01 PLG')).toBeVisible()
      await submitOrder(page, '0.6', '1.0000000001')
      await expect(toast(page, 'Too many decimal places (at most 9)')).toBeVisible()
      await submitOrder(page, '0.6', '0.5')
      await expect(toast(page, 'The amount cannot be less than 1 PLG')).toBeVisible()
      await submitOrder(page, '0.6', '100.01')
      await expect(toast(page, 'Insufficient balance')).toBeVisible()
      await expect(page.getByTestId('order-row')).toHaveCount(0)
    })

    let orderSn = ''
    let orderId = ''
    await test.step('A sells 20 PLG at 0.6 USDT: the order rests on the book', async () => {
      await page.getByTestId('order-price-input').fill('0.6')
      await page.getByTestId('order-amount-input').fill('20')
      await expect(page.getByTestId('order-total')).toHaveText('12 USDT')
      // The review names the price, the total and the 20 PLG locked; a double tap on Confirm places one order.
      const confirmOrder = await openReview(page.getByTestId('order-submit'))
      await expect(page.getByTestId('review-total')).toHaveText('12 USDT')
      await expect(page.getByTestId('review-locked')).toHaveText('20 PLG')
      await snap(page, testInfo, 'sell order review')
      await doubleTapOnce(page, confirmOrder, {
        route: api.tradeSell,
        how: 'clicks',
        answer: 'Order placed',
      })
      // The amount is cleared for the next order; the price stays.
      await expect(page.getByTestId('order-amount-input')).toHaveValue('')
      await expect(page.getByTestId('order-price-input')).toHaveValue('0.6')
      await expect(sellerOrder).toHaveAttribute('data-status', 'pending')
      await expect(sellerOrder.getByTestId('order-sold')).toHaveText('0 PLG')
      await expect(sellerOrder.getByTestId('order-remaining')).toHaveText('20 PLG')
      orderSn = (await sellerOrder.getAttribute('data-sn')) ?? ''
      expect(orderSn).not.toBe('')
      orderId = (await sellerOrder.getAttribute('data-id')) ?? ''
      await expect(page.getByTestId('order-available')).toHaveText('Available: 80 PLG')
      const ask = page.getByTestId('book-ask')
      await expect(ask).toHaveCount(1)
      await expect(ask.getByTestId('book-price')).toHaveText('0.6')
      await expect(ask.getByTestId('book-amount')).toHaveText('20')
      await snap(page, testInfo, 'sell order on the book')
    })

    await test.step('B buys 8 PLG of it from the book', async () => {
      await pageB.goto('/')
      await pageB.getByTestId('home-link-trade').click()
      await expect(pageB).toHaveURL(/\/quick-trade\/buy$/)
      await expect(pageB.getByTestId('order-form')).toHaveAttribute('data-side', 'buy')
      await expect(pageB.getByTestId('order-available')).toHaveText('Available: 50 USDT')
      const ask = pageB.getByTestId('book-ask')
      await expect(ask.getByTestId('book-amount')).toHaveText('20')
      await ask.click()
      await expect(pageB.getByTestId('order-price-input')).toHaveValue('0.6')
      await pageB.getByTestId('order-amount-input').fill('8')
      await expect(pageB.getByTestId('order-total')).toHaveText('4.8 USDT')
      await snap(pageB, testInfo, 'buy from the book')
      await submitReviewed(pageB.getByTestId('order-submit'))
      await expect(toast(pageB, 'Order placed')).toBeVisible()
      // Filled at once: nothing of it rests on the book.
      await expect(pageB.getByTestId('order-row')).toHaveCount(0)
      await pageB.getByTestId('orders-tab-completed').click()
      const bought = pageB.getByTestId('order-row').first()
      await expect(bought).toHaveAttribute('data-status', 'completed')
      await expect(bought.getByTestId('order-earnings')).toHaveText('7.992 PLG')
      await expect(pageB.getByTestId('order-available')).toHaveText('Available: 45.2 USDT')
      await expect(ask.getByTestId('book-amount')).toHaveText('12')
    })

    await test.step('A sees the partial fill, the last price and the chart move without reloading', async () => {
      await expect(sellerOrder.getByTestId('order-sold')).toHaveText('8 PLG')
      await expect(sellerOrder.getByTestId('order-remaining')).toHaveText('12 PLG')
      await expect(page.getByTestId('market-price')).toHaveText('0.6')
      await expect(page.getByTestId('market-price')).toHaveAttribute('data-source', 'trade')
      await expect(page.getByTestId('market-change')).toHaveText('+20%')
      await expect(page.getByTestId('book-last-price')).toContainText('0.6')
      await expect(page.getByTestId('book-ask').getByTestId('book-amount')).toHaveText('12')
      const chart = page.getByTestId('trend-chart')
      await expect(chart).toHaveAttribute('data-candles', '1')
      await expect(chart).toHaveAttribute('data-last-close', '600000')
      await expect(chart.locator('canvas').first()).toBeVisible()
      await snap(page, testInfo, 'partial fill')

      await sellerOrder.getByTestId('order-link').click()
      await expect(page).toHaveURL(/\/quick-trade\/detail\/\d+$/)
      await expect(page.getByTestId('order-sn')).toHaveText(orderSn)
      await expect(page.getByTestId('order-detail-status')).toHaveText('Pending')
      await expect(page.getByTestId('order-status')).toHaveText('Pending')
      await expect(page.getByTestId('order-type')).toHaveText('Sell')
      await expect(page.getByTestId('order-price')).toHaveText('0.6 USDT')
      await expect(page.getByTestId('order-amount')).toHaveText('20 PLG')
      await expect(page.getByTestId('order-sold')).toHaveText('8 PLG')
      await expect(page.getByTestId('order-remaining')).toHaveText('12 PLG')
      await expect(page.getByTestId('order-earnings')).toHaveText('4.79 USDT')
      const fill = page.getByTestId('fill-row')
      await expect(fill).toHaveCount(1)
      await expect(fill).toHaveAttribute('data-role', 'maker')
      await expect(fill.getByTestId('fill-amount')).toHaveText('8 PLG')
      await snap(page, testInfo, 'order detail')
      await page.getByTestId('order-back').click()
      await expect(page).toHaveURL(/\/quick-trade\/sell$/)
    })

    await test.step('A cancels the rest after the confirmation naming the order number', async () => {
      await sellerOrder.getByTestId('order-cancel').click()
      // The review, as before every money action: the order and the question naming its number.
      const dialog = page.getByTestId('review')
      await expect(dialog.getByTestId('cancel-question')).toHaveText(`Cancel order ${orderSn}?`)
      await expect(dialog).toContainText(orderSn)
      await expect(dialog).toContainText('12 PLG')
      await snap(page, testInfo, 'cancel confirmation')
      // Going back changes nothing.
      await dialog.getByTestId('review-cancel').click()
      await expect(dialog).toHaveCount(0)
      await expect(sellerOrder).toHaveAttribute('data-status', 'pending')

      await sellerOrder.getByTestId('order-cancel').click()
      await keepReceipts(page)
      // A double tap cancels once: no 'Failed to withdraw order.' beside the success.
      await doubleTapOnce(page, page.getByTestId('review-confirm'), {
        route: api.tradeCancel,
        how: 'dblclick',
        answer: 'Revocation successfully',
      })
      // Its receipt: the unsold rest back in the balance.
      const receipt = page.getByTestId('receipt')
      await expect(receipt.getByTestId('receipt-returned')).toHaveText('12 PLG')
      await expect(receipt.getByTestId('receipt-filled')).toHaveText('8 PLG')
      await expect(receipt.getByTestId('receipt-state')).toHaveText('Cancelled')
      await receipt.getByTestId('receipt-done').click()
      await expect(receipt).toHaveCount(0)
      await expect(page.getByTestId('order-row')).toHaveCount(0)
      await expect(page.getByTestId('book-ask')).toHaveCount(0)
      // The unsold 12 PLG are back: 100 - 8.
      await expect(page.getByTestId('order-available')).toHaveText('Available: 92 PLG')
      await page.getByTestId('orders-tab-cancelled').click()
      await expect(sellerOrder).toHaveAttribute('data-status', 'cancelled')
      await expect(sellerOrder.getByTestId('order-sold')).toHaveText('8 PLG')
      await snap(page, testInfo, 'cancelled')
      await sellerOrder.getByTestId('order-link').click()
      await expect(page.getByTestId('order-detail-status')).toHaveText('Cancelled')
      await expect(page.getByTestId('order-remaining')).toHaveText('12 PLG')
      await expect(page.getByTestId('order-cancel')).toHaveCount(0)
      await page.getByTestId('order-back').click()

      // Cancelling it again is refused by the server.
      const again = await callAs(sessionA, api.tradeCancel.path, { id: orderId })
      expect(again.msg).toBe('Failed to withdraw order.')

      await page.getByTestId('trade-side-buy').click()
      await expect(page.getByTestId('order-available')).toHaveText('Available: 4.79 USDT')
    })

    await test.step("another user's order, an unknown id and an unknown side are not shown", async () => {
      await pageB.goto(`/quick-trade/detail/${orderId}`)
      await expect(pageB.getByTestId('empty-state')).toHaveText('This order does not exist')
      await expect(pageB.getByTestId('order-detail')).toHaveCount(0)
      await pageB.goto('/quick-trade/detail/999999999')
      await expect(pageB.getByTestId('empty-state')).toHaveText('This order does not exist')
      await pageB.goto('/quick-trade/anything')
      await expect(pageB).toHaveURL(/\/quick-trade\/buy$/)
      await expect(pageB.getByTestId('order-form')).toHaveAttribute('data-side', 'buy')
    })

    await test.step('B swaps USDT for PLG across two levels of the book', async () => {
      for (const [price, amount] of [
        [700_000n, 5n * PLG],
        [800_000n, 5n * PLG],
      ]) {
        const placed = await callAs(sessionA, api.tradeSell.path, { price: `${price}`, amount: `${amount}` })
        expect(placed.code).toBe(1)
      }
      await pageB.getByTestId('bottom-nav').getByText('Home').click()
      await pageB.getByTestId('home-link-swap').click()
      await expect(pageB.getByTestId('page-title')).toHaveText('Swap')
      await pageB.getByTestId('swap-switch').click()
      await expect(pageB.getByTestId('swap-form')).toHaveAttribute('data-from', 'USDT')
      await expect(pageB.getByTestId('swap-available')).toHaveText('Available: 45.2 USDT')
      // 5 PLG at 0.7 and 5 PLG at 0.8 on the book.
      await expect(pageB.getByTestId('swap-depth')).toHaveText('The book can fill up to 7.5 USDT now.')

      // More than the book holds: what it can take is offered instead.
      await pageB.getByTestId('swap-amount').fill('20')
      await expect(pageB.getByTestId('swap-liquidity')).toContainText('There are not enough orders on the book')
      await expect(pageB.getByTestId('swap-liquidity')).toContainText('The book can take 7.5 USDT now.')
      await expect(pageB.getByTestId('swap-submit')).toBeDisabled()

      await pageB.getByTestId('swap-amount').fill('5.5')
      await expect(pageB.getByTestId('swap-liquidity')).toHaveCount(0)
      // 5 PLG at 0.7 and 2.5 PLG at 0.8 = 7.5 PLG, less the 0.1 % fee.
      await expect(pageB.getByTestId('swap-expected')).toHaveText('7.4925 PLG')
      await expect(pageB.getByTestId('swap-impact')).toHaveText('4.76%')
      await expect(pageB.getByTestId('swap-minimum')).toHaveText('7.455 PLG')
      await pageB.getByTestId('swap-slippage-100').click()
      // A minimum as a balance: rounded down (7.417575), never more than will arrive.
      await expect(pageB.getByTestId('swap-minimum')).toHaveText('7.4175 PLG')
      await snap(pageB, testInfo, 'swap quote')
      const [average, fee] = [
        await pageB.getByTestId('swap-average').textContent(),
        await pageB.getByTestId('swap-fee').textContent(),
      ]
      // The review shows what is paid and received at which price; a double tap on Confirm swaps once.
      const confirmSwap = await openReview(pageB.getByTestId('swap-submit'))
      await expect(pageB.getByTestId('review-amount')).toHaveText('5.5 USDT')
      await expect(pageB.getByTestId('review-receive')).toHaveText('7.4925 PLG')
      await expect(pageB.getByTestId('review-minimum')).toHaveText('7.4175 PLG')
      // The same figures as the form's: the price and fee rounded half-up, not cut.
      await expect(pageB.getByTestId('review-price')).toHaveText(average ?? '')
      await expect(pageB.getByTestId('review-fee')).toHaveText(fee ?? '')
      await expect(pageB.getByTestId('review-fee')).toHaveText('0.0075 PLG')
      await snap(pageB, testInfo, 'swap review')
      await doubleTapOnce(pageB, confirmSwap, {
        route: api.swap,
        how: 'dblclick',
        answer: 'Swap completed',
      })
      await expect(pageB.getByTestId('swap-result')).toHaveText('Swapped 5.5 USDT for 7.4925 PLG')
      await expect(pageB.getByTestId('swap-available')).toHaveText('Available: 39.7 USDT')
      await snap(pageB, testInfo, 'swap done')
    })

    await test.step('a swap the book moved against after its quote is refused with nothing changed', async () => {
      await pageB.getByTestId('swap-amount').fill('1')
      // 1.25 PLG at 0.8 less the fee, 1 % tolerance.
      await expect(pageB.getByTestId('swap-minimum')).toHaveText('1.2362 PLG')
      // The quote stops refreshing (a lost connection) while A replaces the 0.8 ask with one at 1 USDT.
      await pageB.route('**/api/trade/swap/quote', (route) => route.abort())
      const pending = await callAs(sessionA, api.tradeMyOrders.path, { status: 'pending' })
      const list = (pending.data as unknown as { list: { id: string }[] }).list
      expect(list).toHaveLength(1)
      expect((await callAs(sessionA, api.tradeCancel.path, { id: list[0]?.id })).code).toBe(1)
      expect((await callAs(sessionA, api.tradeSell.path, { price: '1000000', amount: `${5n * PLG}` })).code).toBe(1)
      await submitReviewed(pageB.getByTestId('swap-submit'))
      await expect(
        toast(pageB, 'The price has moved: you would receive less than the minimum of 1.2362625 PLG'),
      ).toBeVisible()
      // The review of the old quote stays until the user goes back to the form.
      await pageB.getByTestId('review-cancel').click()
      await expect(pageB.getByTestId('review')).toHaveCount(0)
      await expect(pageB.getByTestId('swap-available')).toHaveText('Available: 39.7 USDT')
      await snap(pageB, testInfo, 'swap refused')
      await pageB.unroute('**/api/trade/swap/quote')
    })

    await test.step('the last price and the chart follow the swap', async () => {
      await openTrade(page, 'sell')
      await expect(page.getByTestId('market-price')).toHaveText('0.8')
      await expect(page.getByTestId('trend-chart')).toHaveAttribute('data-last-close', '800000')
      await expect(page.getByTestId('book-ask').getByTestId('book-price')).toHaveText('1')
      await expect(page.getByTestId('book-ask').getByTestId('book-amount')).toHaveText('5')
      await expect(page.getByTestId('trend-chart').locator('canvas').first()).toBeVisible()
      await snap(page, testInfo, 'market after the swap')
    })

    await test.step("B's open book shows A's new order within 2 s, without a reload (the live channel)", async () => {
      const frames = liveFrames(pageB)
      await openTrade(pageB, 'buy')
      await expect(pageB.getByTestId('book-ask')).toHaveCount(1)
      // The screen subscribes to the market topic once it has shown the book, and the subscription's snapshot reads the
      // book once more: only requests after that are counted (on a fast machine the book showed before it).
      await expect.poll(() => frames.some((f) => f.type === 'subscribed' && f.topic === 'market')).toBe(true)
      await quiet(pageB, 500)
      const requests: string[] = []
      pageB.on('request', (request) => requests.push(request.url()))
      const placed = await callAs(sessionA, api.tradeSell.path, { price: '950000', amount: `${2n * PLG}` })
      expect(placed.code).toBe(1)
      const ask = pageB.locator('[data-testid="book-ask"][data-price="950000"]')
      await expect(ask.getByTestId('book-amount')).toHaveText('2', { timeout: 2_000 })
      // Pushed, not polled: the book came without a request for it.
      expect(requests.filter((url) => url.includes(api.tradeHome.path))).toEqual([])
      await snap(pageB, testInfo, 'the new order pushed to the other phone')
      await pageB.context().close()
    })
  })
})
