// @vitest-environment happy-dom
import { api, type MarketInfo } from '@solpledge/contract/client'
import { NEW_MARKET, PLG, walletAsset } from '@solpledge/test-fixtures'
import { act, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { useState } from 'react'
import { describe, expect, it } from 'vitest'
import { deferred, fakeApi, renderSignedIn } from '@/test/harness.tsx'
import { OrderForm } from './order-form.tsx'

/** The new PLG/USDT market (1 PLG at least, on 0.01 PLG), with prices on 0.001 USDT and a 0.2% fee. */
const market: MarketInfo = { ...NEW_MARKET, tick_size: '1000', fee_bps: 20 }

const plg = walletAsset('PLG', 80n * PLG)

function SellForm() {
  const [price, setPrice] = useState('0.5')
  return <OrderForm side="sell" market={market} price={price} onPriceChange={setPrice} />
}

async function sell(amount: string, place: () => Promise<{ data: unknown }> = async () => ({ data: {} })) {
  const calls = fakeApi({
    [api.userWallet.path]: () => ({ data: { list: [plg] } }),
    [api.tradeSell.path]: place,
  })
  await renderSignedIn(<SellForm />)
  const user = userEvent.setup()
  await screen.findByText('Available: 80 PLG', { exact: false })
  await user.type(screen.getByTestId('order-amount-input'), amount)
  await user.click(screen.getByTestId('order-submit'))
  return { user, sells: () => calls.filter((call) => call.path === api.tradeSell.path) }
}

describe('the sell order form', () => {
  it('refuses an amount below the minimum, and more than the available balance', async () => {
    const { user, sells } = await sell('0.5')
    expect(await screen.findByText('The amount cannot be less than 1 PLG')).toBeTruthy()
    await user.clear(screen.getByTestId('order-amount-input'))
    await user.type(screen.getByTestId('order-amount-input'), '80.01')
    await user.click(screen.getByTestId('order-submit'))
    expect(await screen.findByText('Insufficient balance.')).toBeTruthy()
    expect(screen.queryByTestId('review')).toBeNull()
    expect(sells()).toEqual([])
  })

  it('reviews price, amount, total, what is locked and the fee, then places one order', async () => {
    const answer = deferred<{ data: unknown }>()
    const { sells } = await sell('20', () => answer.promise)
    const review = await screen.findByTestId('review')
    const row = (testId: string) => within(review).getByTestId(testId).textContent
    expect(within(review).getByRole('heading').textContent).toBe('Review sell order for PLG')
    expect(row('review-price')).toBe('0.5')
    expect(row('review-amount')).toBe('20 PLG')
    expect(row('review-total')).toBe('10 USDT')
    expect(row('review-locked')).toBe('20 PLG')
    expect(row('review-fee')).toBe('0.2%')

    const confirm = within(review).getByTestId('review-confirm') as HTMLButtonElement
    // Two taps in one task, before React can re-render the button disabled.
    act(() => {
      confirm.click()
      confirm.click()
    })
    await waitFor(() => expect(confirm.disabled).toBe(true))
    expect(confirm.getAttribute('aria-busy')).toBe('true')
    // Half filled at once: the receipt says what was sold and received, and that the rest waits on the book.
    answer.resolve({
      data: {
        id: '9',
        order_sn: 'S9',
        type: 'sell',
        kind: 'limit',
        status: 'pending',
        price: '500000',
        amount: '20000000000',
        sold_amount: '10000000000',
        remaining_amount: '10000000000',
        average_price: '500000',
        quote_amount: '5000000',
        total_earnings: '4990000',
        fee: '10000',
        created_at: '2026-11-28T10:00:00.000Z',
        updated_at: '2026-11-28T10:00:00.000Z',
      },
    })
    expect(await screen.findByText('Order placed')).toBeTruthy()
    const receipt = await screen.findByTestId('receipt')
    expect(within(receipt).getByTestId('receipt-paid').textContent).toBe('10 PLG')
    expect(within(receipt).getByTestId('receipt-received').textContent).toBe('4.99 USDT')
    expect(within(receipt).getByTestId('receipt-fee').textContent).toBe('0.01 USDT')
    expect(within(receipt).getByTestId('receipt-remaining').textContent).toBe('10 PLG')
    expect(within(receipt).getByTestId('receipt-state').textContent).toBe('Pending')
    expect(sells()).toHaveLength(1)
    expect(sells()[0]?.body).toMatchObject({ price: '500000', amount: '20000000000' })
  })
})
