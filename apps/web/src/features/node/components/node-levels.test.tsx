// @vitest-environment happy-dom
import { api } from '@solpledge/contract/client'
import { screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { fakeApi, renderApp } from '@/test/harness.tsx'
import { NodeLevels } from './node-levels.tsx'

const level = (code: string, price: number, weight: number) => ({
  code,
  price_usdt: String(price * 1_000_000),
  supply_cap: 100,
  sold: 1,
  remaining: 99,
  power_bonus_bps: 1000,
  dividend_weight: weight,
  one_per_user: true,
})

describe('the node levels', () => {
  it("show each level's expected dividends per day and per year, in PLG and USDT, and the APR on its price", async () => {
    fakeApi({
      [api.nodeLevel.path]: () => ({
        data: {
          list: [level('junior', 500, 1), level('senior', 2000, 5)],
          // 1,000 PLG a day among the weight sold (5) and the node bought; 0.5 USDT per PLG.
          pool: { coin: 'PLG', decimals: 9, daily: '1000000000000', total_weight: '5', price: '500000' },
        },
      }),
    })
    await renderApp(<NodeLevels />)
    const card = async (code: string) =>
      within((await screen.findAllByTestId('node-level')).find((li) => li.dataset.level === code) as HTMLElement)
    const junior = await card('junior')
    // 1,000 / 6 = 166.666666666 PLG ≈ 83.33 USDT a day; a year of it over 500 USDT: 6,083.33 %.
    expect(junior.getByTestId('returns-daily').textContent).toBe('166.666666 PLG ≈ 83.33 USDT')
    expect(junior.getByTestId('returns-total').textContent).toBe('60,833.333333 PLG ≈ 30,416.66 USDT')
    expect(junior.getByTestId('returns-apr').textContent).toBe('6,083.33%')
    expect(junior.getByTestId('node-level-power').textContent).toBe('10%')
    // 1,000 × 5 / 10 = 500 PLG ≈ 250 USDT a day; a year of it over 2,000 USDT: 4,562.5 %.
    const senior = await card('senior')
    expect(senior.getByTestId('returns-daily').textContent).toBe('500 PLG ≈ 250 USDT')
    expect(senior.getByTestId('returns-apr').textContent).toBe('4,562.5%')
    expect(screen.getByTestId('help-dividends').textContent).toMatch(/^Dividends: the daily node pool of 1,000 PLG/)
    expect(screen.getByTestId('help-power').textContent).toMatch(/^Power bonus:/)
  })
})
