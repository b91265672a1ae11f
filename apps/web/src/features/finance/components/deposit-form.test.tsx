// @vitest-environment happy-dom
import { api } from '@solpledge/contract/client'
import { USDT, walletAsset } from '@solpledge/test-fixtures'
import { act, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { deferred, fakeApi, renderSignedIn } from '@/test/harness.tsx'
import { DepositForm } from './deposit-form.tsx'

const usdt = walletAsset('USDT', 500n * USDT)

/** What the server answers a deposit of 100 USDT for 30 days. */
const DEPOSIT = {
  id: '4',
  coin: 'USDT',
  decimals: 6,
  amount: '100000000',
  days: 30,
  power_bps: 20_000,
  output_bps: 600,
  power: '200000000',
  total_output: '6000000',
  output: '0',
  start_day: '2026-11-28',
  end_day: '2026-12-28',
  status: 'active',
  redeemable: false,
  redeemed_at: null,
  created_at: '2026-11-28T10:00:00.000Z',
}

/** 7 days at 1% output and ×1 power, 30 days at 6% output and ×2 power; 500 USDT available. */
function fakeFinance(deposit: () => Promise<{ data: unknown }> = async () => ({ data: DEPOSIT })) {
  return fakeApi({
    [api.financeProducts.path]: () => ({
      data: {
        coin: 'USDT',
        decimals: 6,
        list: [
          { days: 7, power_bps: 10_000, output_bps: 100 },
          { days: 30, power_bps: 20_000, output_bps: 600 },
        ],
      },
    }),
    [api.userWallet.path]: () => ({ data: { list: [usdt] } }),
    [api.financeDeposit.path]: deposit,
  })
}

async function depositFor30Days(text: string) {
  await renderSignedIn(<DepositForm signedIn />)
  const user = userEvent.setup()
  await user.click(await screen.findByText('30 days'))
  await screen.findByText('Available balance: 500 USDT')
  if (text) await user.type(screen.getByTestId('finance-amount'), text)
  await user.click(screen.getByTestId('finance-submit'))
  return user
}

describe('the finance deposit form', () => {
  it('asks for an amount, and refuses more than the available balance as it is typed', async () => {
    const calls = fakeFinance()
    const user = await depositFor30Days('')
    expect(await screen.findByText('Please enter the deposit amount')).toBeTruthy()
    await user.type(screen.getByTestId('finance-amount'), '500.5')
    // Said while typing, and the form cannot be sent until the amount fits.
    expect((await screen.findByTestId('finance-blocked')).textContent).toBe('Insufficient balance.')
    const submit = screen.getByTestId('finance-submit') as HTMLButtonElement
    expect(submit.disabled).toBe(true)
    expect(submit.getAttribute('aria-describedby')).toBe('finance-blocked')
    await user.click(submit)
    await user.clear(screen.getByTestId('finance-amount'))
    await user.type(screen.getByTestId('finance-amount'), '500')
    expect(screen.queryByTestId('finance-blocked')).toBeNull()
    expect(submit.disabled).toBe(false)
    expect(screen.queryByTestId('review')).toBeNull()
    expect(calls.filter((call) => call.path === api.financeDeposit.path)).toEqual([])
  })

  it('shows each term’s returns on its card, explains output and power, and computes the amount typed', async () => {
    fakeFinance()
    await renderSignedIn(<DepositForm signedIn />)
    const cards = await screen.findAllByTestId('finance-period')
    const line = (card: HTMLElement, testId: string) => within(card).getByTestId(testId).textContent
    // Per 100 USDT: 7 days at 1 % → 1 USDT, 0.14 a day, 52.14 % a year; 30 days at 6 % → 6 USDT, 0.2 a day, 73 %.
    expect(
      cards.map((card) => [line(card, 'returns-daily'), line(card, 'returns-total'), line(card, 'returns-apr')]),
    ).toEqual([
      ['0.14 USDT a day', '1 USDT in total', 'Est. APR 52.14%'],
      ['0.2 USDT a day', '6 USDT in total', 'Est. APR 73%'],
    ])
    expect(within(cards[1] as HTMLElement).getByText('Output 6% · Power ×2')).toBeTruthy()
    expect(screen.getByTestId('finance-reference').textContent).toBe('Figures for a deposit of 100 USDT.')
    expect(screen.getByTestId('help-output').textContent).toMatch(/^Output %: interest over the whole term/)
    expect(screen.getByTestId('help-power').textContent).toMatch(/^Power: the deposit × this multiple/)

    const user = userEvent.setup()
    await user.click(screen.getByText('30 days'))
    expect(screen.queryByTestId('finance-estimate')).toBeNull()
    await user.type(await screen.findByTestId('finance-amount'), '250')
    expect((await screen.findByTestId('finance-estimate-daily')).textContent).toBe('0.5 USDT')
    expect(screen.getByTestId('finance-estimate-total').textContent).toBe('15 USDT')
    expect(screen.getByTestId('finance-estimate-apr').textContent).toBe('73%')
    const days = screen.getAllByTestId('finance-estimate-day')
    expect(days.map((row) => [row.dataset.day, within(row).getByRole('cell').textContent])).toEqual([
      ['1', '0.5 USDT'],
      ['7', '3.5 USDT'],
      ['30', '15 USDT'],
    ])
  })

  it('reviews term, rate, expected output and maturity, then deposits once while Confirm is disabled', async () => {
    const answer = deferred<{ data: unknown }>()
    const calls = fakeFinance(() => answer.promise)
    await depositFor30Days('100')
    const review = await screen.findByTestId('review')
    const row = (testId: string) => within(review).getByTestId(testId).textContent
    expect(row('review-amount')).toBe('100 USDT')
    expect(row('review-period')).toBe('30 days')
    expect(within(review).getByText('6%')).toBeTruthy()
    expect(row('review-output')).toBe('6 USDT')
    const maturity = new Date(Date.now() + 30 * 86_400_000)
    expect(row('review-maturity')).toBe(
      new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeZone: 'UTC' }).format(maturity),
    )

    const confirm = within(review).getByTestId('review-confirm') as HTMLButtonElement
    // Two taps in one task, before React can re-render the button disabled.
    act(() => {
      confirm.click()
      confirm.click()
    })
    await waitFor(() => expect(confirm.disabled).toBe(true))
    expect(confirm.textContent).toBe('Depositing…')
    answer.resolve({ data: DEPOSIT })
    expect(await screen.findByText('Deposit successful')).toBeTruthy()
    const receipt = await screen.findByTestId('receipt')
    expect(within(receipt).getByTestId('receipt-amount').textContent).toBe('100 USDT')
    expect(within(receipt).getByTestId('receipt-output').textContent).toBe('6 USDT')
    expect(within(receipt).getByTestId('receipt-state').textContent).toBe('Active')
    await waitFor(() => expect(screen.queryByTestId('review')).toBeNull())
    const deposits = calls.filter((call) => call.path === api.financeDeposit.path)
    expect(deposits.map((call) => call.body)).toEqual([{ amount: '100000000', days: 30 }])
  })
})
