// @vitest-environment happy-dom
import { api, type Withdrawal } from '@solpledge/contract/client'
import { USDT, walletAsset } from '@solpledge/test-fixtures'
import { act, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { ADDRESS, deferred, fakeApi, renderSignedIn } from '@/test/harness.tsx'
import { WithdrawDialog } from './withdraw-dialog.tsx'

/** 250 USDT available, at least 10 USDT a withdrawal, 1 USDT fee. */
const usdt = walletAsset('USDT', 250n * USDT, { minimum: 10n * USDT, fee: USDT })

async function openWithAmount(text: string) {
  const onClose = vi.fn()
  await renderSignedIn(<WithdrawDialog open asset={usdt} onClose={onClose} />)
  const user = userEvent.setup()
  await user.type(await screen.findByTestId('withdraw-amount'), text)
  await user.click(screen.getByTestId('withdraw-submit'))
  return { user, onClose }
}

describe('the withdraw dialog', () => {
  it('says what is wrong with the amount and opens no review', async () => {
    const calls = fakeApi({})
    await openWithAmount('5')
    expect(await screen.findByText('The withdrawal amount cannot be less than 10 USDT')).toBeTruthy()
    expect(screen.queryByTestId('review')).toBeNull()
    expect(calls).toEqual([])
  })

  it('refuses more than the available balance', async () => {
    fakeApi({})
    await openWithAmount('250.000001')
    expect(await screen.findByText('Insufficient balance.')).toBeTruthy()
    expect(screen.queryByTestId('review')).toBeNull()
  })

  it('reviews amount, fee, what arrives and where, and Cancel goes back to the form without a call', async () => {
    const calls = fakeApi({})
    const { user } = await openWithAmount('100')
    const review = await screen.findByTestId('review')
    expect(within(review).getByRole('heading').textContent).toBe('Review withdrawal of USDT')
    expect(within(review).getByTestId('review-amount').textContent).toBe('100 USDT')
    expect(within(review).getByTestId('review-fee').textContent).toBe('1 USDT')
    expect(within(review).getByTestId('review-receive').textContent).toBe('99 USDT')
    expect(within(review).getByTestId('review-address').textContent).toBe(ADDRESS)
    await user.click(within(review).getByTestId('review-cancel'))
    await waitFor(() => expect(screen.queryByTestId('review')).toBeNull())
    expect((screen.getByTestId('withdraw-amount') as HTMLInputElement).value).toBe('100')
    expect(calls).toEqual([])
  })

  it('confirms with one call however often Confirm is tapped, disabled and saying so while it runs', async () => {
    const answer = deferred<{ data: Withdrawal; msg: string }>()
    const calls = fakeApi({ [api.withdraw.path]: () => answer.promise })
    const { user, onClose } = await openWithAmount('100')
    const confirm = within(await screen.findByTestId('review')).getByTestId('review-confirm')
    // Two taps in one task, before React can re-render the button disabled: the action's own guard must hold.
    act(() => {
      confirm.click()
      confirm.click()
    })
    await waitFor(() => expect((confirm as HTMLButtonElement).disabled).toBe(true))
    expect(confirm.textContent).toBe('Requesting…')
    expect(screen.getByTestId('review-cancel')).toHaveProperty('disabled', true)
    await user.click(confirm)
    answer.resolve({
      data: {
        id: '1',
        coin: 'USDT',
        decimals: 6,
        amount: '100000000',
        fee: '1000000',
        receive: '99000000',
        address: ADDRESS,
        status: 'pending',
        signature: null,
        reason: null,
        created_at: '2026-11-28T10:00:00.000Z',
        updated_at: '2026-11-28T10:00:00.000Z',
      },
      msg: 'Withdrawal requested',
    })
    expect(await screen.findByText('Withdrawal requested')).toBeTruthy()
    expect(onClose).toHaveBeenCalledTimes(1)
    expect(within(await screen.findByTestId('receipt')).getByTestId('receipt-state').textContent).toBe('Queued')
    expect(calls).toHaveLength(1)
    expect(calls[0]?.body).toEqual({ coin: 'USDT', amount: '100000000' })
    expect(calls[0]?.headers['Idempotency-Key']).toMatch(/.+/)
  })
})
