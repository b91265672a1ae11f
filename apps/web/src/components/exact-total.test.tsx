// @vitest-environment happy-dom
import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { renderApp } from '@/test/harness.tsx'
import { ExactTotal } from './exact-total.tsx'

const USDT = { symbol: 'USDT', decimals: 6 }

describe('ExactTotal', () => {
  it('is plain text where the rows as shown add up to it', async () => {
    const view = await renderApp(<ExactTotal total="499996" rows={Array(7).fill('71428')} asset={USDT} kind="output" />)
    expect(view.container.textContent).toBe('0.49 USDT')
    expect(screen.queryByTestId('exact-total')).toBeNull()
  })

  it('shows the exact total on tap, and on hover its title, where the rows cannot add up to it', async () => {
    // 0.075 + 0.075001 read 0.07 + 0.07 beside 0.150001, shown 0.15.
    const view = await renderApp(<ExactTotal total="150001" rows={['75000', '75001']} asset={USDT} kind="output" />)
    const total = screen.getByTestId('exact-total')
    expect(total.textContent).toBe('0.15 USDT')
    expect(total.getAttribute('title')).toBe('0.150001 USDT')
    expect(total.getAttribute('aria-label')).toBe('0.15 USDT, rounded: tap for the exact total')
    await userEvent.click(total)
    expect(total.textContent).toBe('0.150001 USDT')
    expect(total.getAttribute('aria-pressed')).toBe('true')
    await userEvent.click(total)
    expect(total.textContent).toBe('0.15 USDT')
    view.unmount()

    // Only some rows loaded: nothing to add up, the exact total is a tap away.
    await renderApp(<ExactTotal total="499996" rows={null} asset={USDT} kind="output" />)
    expect(screen.getByTestId('exact-total').getAttribute('title')).toBe('0.499996 USDT')
  })

  it('is plain text when the total has no more decimals than it shows', async () => {
    const view = await renderApp(<ExactTotal total="150000" rows={['75000', '75000']} asset={USDT} kind="output" />)
    expect(view.container.textContent).toBe('0.15 USDT')
  })
})
