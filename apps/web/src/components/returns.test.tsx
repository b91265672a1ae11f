// @vitest-environment happy-dom
import { financeReturns, stakeReturns } from '@solpledge/contract/client'
import { act, screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { changeLanguage } from '@/lib/i18n.ts'
import { renderApp } from '@/test/harness.tsx'
import { ReturnsCalculator, scheduleDays } from './returns.tsx'

const PLG = { symbol: 'PLG', decimals: 9 }
const USDT = { symbol: 'USDT', decimals: 6 }
// 200 PLG at 0.5 USDT for 30 days, output ×1.06.
const stake = stakeReturns(
  200_000_000_000n,
  { price: '500000', decimals: 9 },
  { days: 30, output_bps: 10_600, power_bps: 10_000 },
)

const text = (testId: string) => screen.getByTestId(testId).textContent
const rows = (testId: string) =>
  screen.getAllByTestId(`${testId}-day`).map((row) => [row.dataset.day, within(row).getByRole('cell').textContent])

describe('the returns calculator', () => {
  it('shows per day, in total and the APR of the amount typed, in the token and in USDT', async () => {
    await renderApp(<ReturnsCalculator returns={stake} asset={PLG} testId="calc" />)
    expect(text('calc-daily')).toBe('7.066666 PLG ≈ 3.53 USDT')
    expect(text('calc-total')).toBe('212 PLG ≈ 106 USDT')
    expect(text('calc-apr')).toBe('73%')
    expect(screen.getByRole('heading', { name: 'What you get' })).toBeTruthy()
    expect(screen.getByText(/Estimates at today's price/)).toBeTruthy()
  })

  it('lists what has been paid by each milestone day, the last day paying the rounding rest', async () => {
    await renderApp(<ReturnsCalculator returns={stake} asset={PLG} testId="calc" />)
    const table = screen.getByRole('table', { name: 'Received by day' })
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Day', 'Received by then'])
    expect(rows('calc')).toEqual([
      ['1', '7.066666 PLG ≈ 3.53 USDT'],
      ['7', '49.466666 PLG ≈ 24.73 USDT'],
      ['30', '212 PLG ≈ 106 USDT'],
    ])
    expect(within(table).getByRole('rowheader', { name: 'Day 30 (last)' })).toBeTruthy()
  })

  it('shows a USDT position once, without a USDT value beside it, and in the interface language', async () => {
    const deposit = financeReturns(1_000_000_000n, { days: 180, output_bps: 2000, power_bps: 20_000 })
    await renderApp(<ReturnsCalculator returns={deposit} asset={USDT} testId="calc" />)
    expect(text('calc-daily')).toBe('1.11 USDT')
    expect(text('calc-total')).toBe('200 USDT')
    expect(text('calc-apr')).toBe('40.56%')
    expect(rows('calc').map(([day]) => day)).toEqual(['1', '7', '30', '90', '180'])
    await act(() => changeLanguage('vi'))
    expect(text('calc-total')).toBe('200 USDT')
    expect(text('calc-apr')).toBe('40,56%')
    expect(rows('calc')[0]).toEqual(['1', '1,11 USDT'])
    await act(() => changeLanguage('en'))
  })

  it('shows nothing without an amount', async () => {
    const { container } = await renderApp(<ReturnsCalculator returns={null} asset={PLG} testId="calc" />)
    expect(container.querySelector('[data-testid="calc"]')).toBeNull()
  })
})

describe('scheduleDays', () => {
  it('takes the milestones within the term, then its last day', () => {
    expect(scheduleDays(1)).toEqual([1])
    expect(scheduleDays(7)).toEqual([1, 7])
    expect(scheduleDays(30)).toEqual([1, 7, 30])
    expect(scheduleDays(45)).toEqual([1, 7, 30, 45])
    expect(scheduleDays(400)).toEqual([1, 7, 30, 90, 180, 365, 400])
  })
})
