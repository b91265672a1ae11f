// @vitest-environment happy-dom
import { api, type PaymentIntent, type TradeOrder, type Withdrawal } from '@solpledge/contract/client'
import { USDT, walletAsset } from '@solpledge/test-fixtures'
import { act, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { withdrawalReceipt } from '@/features/assets/api/request-withdraw.ts'
import { WithdrawDialog } from '@/features/assets/components/withdraw-dialog.tsx'
import { cancelReceipt, orderReceipt } from '@/features/trade/utils/receipt.ts'
import { paymentReceipt } from '@/lib/payment/payment-outcome.ts'
import { showReceipt } from '@/lib/receipt.ts'
import { fakeApi, renderApp, renderSignedIn, TEST_CONFIG } from '@/test/harness.tsx'

const SIGNATURE = '5VERv8NMvzbJMEkV8xnrLkEaWRtSz9CosKDYjCJjBRnbJLgp8uirBgmQpjKhoR4tjF3ZpRzrFmBV6UjKdiSZkQUW'
const WITHDRAWAL: Withdrawal = {
  id: '7',
  coin: 'USDT',
  decimals: 6,
  amount: '1500250000',
  fee: '1000000',
  receive: '1499250000',
  address: 'DemoWa11etAddress1111111111111111111111111',
  status: 'review',
  signature: null,
  reason: null,
  created_at: '2026-11-28T10:00:00.000Z',
  updated_at: '2026-11-28T10:00:00.000Z',
}

/** The sheet's rows as label → value, state and transaction included. */
const rowsOf = (sheet: HTMLElement) =>
  Object.fromEntries(
    within(sheet)
      .getAllByRole('definition')
      .map((value) => [value.previousElementSibling?.textContent, value.textContent]),
  )

describe('the receipt sheet', () => {
  it('shows what a withdrawal under review moved, grouped, to the base unit, without a transaction yet', async () => {
    await renderApp(null)
    act(() => showReceipt(withdrawalReceipt(WITHDRAWAL)))
    const sheet = await screen.findByTestId('receipt')
    expect(within(sheet).getByRole('heading').textContent).toBe('Withdrawal of USDT')
    expect(rowsOf(sheet)).toEqual({
      Amount: '1,500.25 USDT',
      Fee: '1 USDT',
      'You receive': '1,499.25 USDT',
      Status: 'Under review',
    })
    expect(within(sheet).getByTestId('receipt-state').dataset.state).toBe('review')
    expect(within(sheet).getByTestId('receipt-state').className).toContain('badge-wait')
    expect(within(sheet).queryByTestId('receipt-signature')).toBeNull()
  })

  it("links a payment's transaction to the explorer of the app's cluster and closes on Done", async () => {
    await renderApp(null)
    const intent = {
      id: '3',
      purpose: 'recharge',
      coin: 'PLG',
      decimals: 9,
      amount: '1234500000000',
      status: 'fulfilled',
      signature: SIGNATURE,
      days: null,
      level: null,
      refusal: null,
    } as PaymentIntent
    act(() => showReceipt(paymentReceipt(intent)))
    const sheet = await screen.findByTestId('receipt')
    expect(rowsOf(sheet)).toMatchObject({ Paid: '1,234.5 PLG', Status: 'Credited' })
    expect(within(sheet).getByTestId('receipt-state').className).toContain('badge-ok')
    const link = within(sheet).getByTestId('receipt-signature-link')
    expect(link.getAttribute('href')).toBe(
      `https://explorer.solana.com/tx/${SIGNATURE}?cluster=custom&customUrl=${encodeURIComponent(TEST_CONFIG.rpcUrl)}`,
    )
    await userEvent.click(within(sheet).getByTestId('receipt-done'))
    await waitFor(() => expect(screen.queryByTestId('receipt')).toBeNull())
  })

  it("shows an order's fills with its fee and average price, and that the rest waits on the book", async () => {
    await renderApp(null)
    const market = { symbol: 'PLG', quote: 'USDT', base_decimals: 9, quote_decimals: 6 } as Parameters<
      typeof orderReceipt
    >[0]
    const order = {
      type: 'sell',
      kind: 'limit',
      status: 'pending',
      amount: '2000000000000',
      sold_amount: '1200000000000',
      remaining_amount: '800000000000',
      average_price: '498333',
      quote_amount: '598000000',
      total_earnings: '597402000',
      fee: '598000',
    } as TradeOrder
    act(() => showReceipt(orderReceipt(market, order, 'Sell order for PLG')))
    const sheet = await screen.findByTestId('receipt')
    expect(rowsOf(sheet)).toEqual({
      Paid: '1,200 PLG',
      Received: '597.402 USDT',
      Fee: '0.598 USDT',
      'Average price': '0.498333 USDT',
      'Remaining amount': '800 PLG',
      Status: 'Pending',
    })
  })

  it('says what a cancel returned to the balance: the rest of a sell, or what a buy held for it', async () => {
    await renderApp(null)
    const market = { symbol: 'PLG', quote: 'USDT', base_decimals: 9, quote_decimals: 6 } as Parameters<
      typeof cancelReceipt
    >[0]
    const order = {
      order_sn: 'T42',
      type: 'buy',
      kind: 'limit',
      status: 'cancelled',
      price: '512345',
      amount: '3000000000000',
      sold_amount: '1000000000000',
      remaining_amount: '2000010000000',
    } as TradeOrder
    act(() => showReceipt(cancelReceipt(market, order)))
    let sheet = await screen.findByTestId('receipt')
    expect(within(sheet).getByText('Order T42 cancelled')).toBeTruthy()
    // 2,000.01 PLG at 0.512345 USDT held 1,024.695123 USDT (…123.45 base units, rounded down as the server does).
    expect(rowsOf(sheet)).toEqual({
      'Returned to your balance': '1,024.695123 USDT',
      'Bought amount': '1,000 PLG',
      Status: 'Cancelled',
    })
    act(() => showReceipt(cancelReceipt(market, { ...order, type: 'sell' })))
    await waitFor(() => expect(rowsOf(screen.getByTestId('receipt'))['Returned to your balance']).toBe('2,000.01 PLG'))
    sheet = screen.getByTestId('receipt')
    expect(rowsOf(sheet)['Sold amount']).toBe('1,000 PLG')
  })

  it('opens after a confirmed withdrawal with what the server answered', async () => {
    // The whole path: the dialog's Confirm → the call → the toast and this sheet (the withdraw dialog's own test
    // covers the form); an answer over the review threshold says so in both.
    fakeApi({
      [api.withdraw.path]: () => ({
        data: WITHDRAWAL,
        msg: 'Withdrawal requested: it is under review before it is sent',
      }),
    })
    const usdt = walletAsset('USDT', 2000n * USDT, { minimum: 10n * USDT, fee: USDT })
    await renderSignedIn(<WithdrawDialog open asset={usdt} onClose={() => {}} />)
    const user = userEvent.setup()
    await user.type(await screen.findByTestId('withdraw-amount'), '1500.25')
    await user.click(screen.getByTestId('withdraw-submit'))
    await user.click(within(await screen.findByTestId('review')).getByTestId('review-confirm'))
    const sheet = await screen.findByTestId('receipt')
    expect(within(sheet).getByTestId('receipt-state').textContent).toBe('Under review')
    expect(await screen.findByText('Withdrawal requested: it is under review before it is sent')).toBeTruthy()
  })
})
