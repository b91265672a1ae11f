import type { Page } from '@playwright/test'
import { api, formatAmount, parseAmount } from '@solpledge/contract'
import {
  addDays,
  callAs,
  doubleTapOnce,
  expect,
  liveFrames,
  newUser,
  openReview,
  quiet,
  serverToday,
  settleThrough,
  snap,
  test,
  toast,
} from './fixtures.ts'
import { topUp } from './top-up.ts'

/** PLG base units of a shown amount such as '7.066666666 PLG'. */
function plgUnits(text: string | null) {
  const parsed = parseAmount((text ?? '').replace(/\s*PLG$/, ''), 9)
  if (!parsed.ok) throw new Error(`not an amount of PLG: ${text}`)
  return parsed.value
}

/** The available balance of an asset on the assets screen. */
async function available(page: Page, coin: string) {
  await page.goto('/assets')
  const text = await page
    .locator(`[data-testid="asset-row"][data-coin="${coin}"]`)
    .getByTestId('asset-available')
    .textContent()
  return (text ?? '').trim()
}

/** Opens /pledge signed in, with the configuration loaded. */
async function openPledge(page: Page) {
  await page.goto('/pledge')
  await expect(page.getByTestId('page-title')).toHaveText('Staking')
  await expect(page.getByTestId('pledge-config')).toBeVisible()
  await expect(page.getByTestId('pledge-today')).toBeVisible()
}

test.describe('staking, finance and node payments', () => {
  // One journey: it settles future days, so its positions must all exist before the first settlement.
  // Stakes on chain and from the balance, buys a node on chain, deposits USDT, settles the next days and redeems.
  test('stake, buy a node, deposit, settle and redeem', async ({ page }, testInfo) => {
    test.setTimeout(300_000)
    const { wallet, session } = await newUser(page)
    // What the stake form's calculator showed for 200 PLG over 30 days (in PLG): held against what the stakes produce.
    const calculator = { daily: '', bySeventh: '' }

    await test.step('the configuration failing to load says so', async () => {
      await page.route('**/api/invest/invest_pledge/PLG', (route) => route.abort())
      const frames = liveFrames(page)
      await page.goto('/pledge')
      await expect(page.getByTestId('pledge-config-error')).toContainText('Failed to get configuration', {
        timeout: 20_000,
      })
      // The live channel connects after the first screen and reads its topics' data again when subscribed: that read
      // (failing too) is let pass first, or it would load the configuration by itself once the route is back.
      await expect.poll(() => frames.some((frame) => frame.type === 'subscribed')).toBe(true)
      await quiet(page, 1_000)
      await snap(page, testInfo, 'configuration failed')
      await page.unroute('**/api/invest/invest_pledge/PLG')
      await page.getByTestId('pledge-config-error').getByRole('button').click()
      await expect(page.getByTestId('pledge-config')).toBeVisible()
      await expect(page.getByTestId('pledge-price')).toHaveText('1 PLG = 0.5 USDT')
      await expect(page.getByTestId('pledge-minimum')).toHaveText('200 PLG (worth 100 USDT)')
      const periods = page.getByTestId('pledge-period')
      await expect(periods).toHaveCount(3)
      await expect(periods.first()).toContainText('30 days')
      await expect(periods.first()).toContainText('Output ×1.06 · Power ×1')
      // Each period's returns for the minimum stake, in PLG and in USDT at the valuation price, and its APR.
      await expect(page.getByTestId('pledge-reference')).toHaveText('Figures for a stake of 200 PLG (≈ 100 USDT).')
      await expect(periods.first().getByTestId('returns-daily')).toHaveText('7.066666 PLG ≈ 3.53 USDT a day')
      await expect(periods.first().getByTestId('returns-total')).toHaveText('212 PLG ≈ 106 USDT in total')
      await expect(periods.first().getByTestId('returns-apr')).toHaveText('Est. APR 73%')
      await expect(page.getByTestId('help-output')).toBeVisible()
      await expect(page.getByTestId('help-power')).toBeVisible()
    })

    // Through the API (assets.spec.ts taps through the faucet and the top-up): the faucet's 1,000 PLG and 1,000 USDT
    // in the wallet, 300 PLG and 100 USDT of them in the balance.
    await test.step('fund the wallet and the balances', async () => {
      await topUp(wallet, session, 'PLG', 300_000_000_000n)
      await topUp(wallet, session, 'USDT', 100_000_000n, { faucet: false })
    })

    await test.step('every refusal of the stake form shows its text', async () => {
      await openPledge(page)
      await expect(page.getByTestId('pledge-spendable')).toHaveText('Available balance: 300 PLG')
      const submit = page.getByTestId('pledge-submit')
      await submit.click()
      await expect(toast(page, 'Please enter the amount of PLG')).toBeVisible()
      await page.getByTestId('pledge-amount').fill('199.5')
      await submit.click()
      await expect(toast(page, 'The amount of the pledge cannot be less than 200PLG')).toBeVisible()
      // More than the balance: said as it is typed, and Stake stays disabled until the amount fits.
      await page.getByTestId('pledge-amount').fill('300.5')
      await expect(page.getByTestId('pledge-blocked')).toHaveText('Staking amount exceeds available balance.')
      await expect(submit).toBeDisabled()
      // On chain the wallet's 700 PLG is what counts.
      await page.getByTestId('pledge-pay-chain').click()
      await expect(page.getByTestId('pledge-spendable')).toHaveText('Wallet balance: 700 PLG')
      await expect(page.getByTestId('pledge-blocked')).toHaveCount(0)
      await expect(submit).toBeEnabled()
      await page.getByTestId('pledge-amount').fill('700.000000001')
      await expect(page.getByTestId('pledge-blocked')).toHaveText('Staking amount exceeds available balance.')
      await expect(submit).toBeDisabled()
      await snap(page, testInfo, 'stake refused')
    })

    // Every money button of this journey is double-tapped: each time one call, one effect, one toast.
    await test.step('stake 200 PLG from the balance and 200 PLG on chain, for 30 days', async () => {
      await openPledge(page)
      await page.locator('[data-testid="pledge-period"][data-value="30"]').click()
      await page.getByTestId('pledge-pay-balance').click()
      await page.getByTestId('pledge-amount').fill('200')
      // The calculator: what 200 PLG earn, by day; the settlement below pays exactly these figures.
      await expect(page.getByTestId('pledge-estimate-total')).toHaveText('212 PLG ≈ 106 USDT')
      await expect(page.getByTestId('pledge-estimate-daily')).toHaveText('7.066666 PLG ≈ 3.53 USDT')
      await expect(page.getByTestId('pledge-estimate-apr')).toHaveText('73%')
      const seventh = page.locator('[data-testid="pledge-estimate-day"][data-day="7"] td')
      await expect(seventh).toHaveText('49.466666 PLG ≈ 24.73 USDT')
      const inPlg = (text: string | null) => (text ?? '').split(' ≈ ')[0] as string
      calculator.daily = inPlg(await page.getByTestId('pledge-estimate-daily').textContent())
      calculator.bySeventh = inPlg(await seventh.textContent())
      await snap(page, testInfo, 'stake form')
      const confirmStake = await openReview(page.getByTestId('pledge-submit'))
      await expect(page.getByTestId('review-amount')).toHaveText('200 PLG')
      await expect(page.getByTestId('review-period')).toHaveText('30 days')
      await expect(page.getByTestId('review-output')).toHaveText('212 PLG')
      await snap(page, testInfo, 'stake review')
      await doubleTapOnce(page, confirmStake, {
        route: api.pledgeStake,
        how: 'dblclick',
        answer: 'Staking Successful',
      })
      await expect(page.getByTestId('stake-row')).toHaveCount(1)
      await expect(page.getByTestId('pledge-spendable')).toHaveText('Available balance: 100 PLG')

      await page.getByTestId('pledge-pay-chain').click()
      await page.getByTestId('pledge-amount').fill('200')
      await expect(toast(page, 'Staking Successful')).toHaveCount(0)
      const confirmChainStake = await openReview(page.getByTestId('pledge-submit'))
      await expect(page.getByTestId('review-pay')).toHaveText('On chain')
      await doubleTapOnce(page, confirmChainStake, {
        route: api.intentCreate,
        how: 'clicks',
        answer: 'Staking Successful',
        timeout: 30_000,
      })
      await expect(page.getByTestId('stake-row')).toHaveCount(2)
      await expect(page.getByTestId('pledge-spendable')).toHaveText('Wallet balance: 500 PLG')
      const first = page.getByTestId('stake-row').first()
      await expect(first).toHaveAttribute('data-status', 'mining')
      await expect(first.getByTestId('stake-amount')).toHaveText('200 PLG')
      await expect(first.getByTestId('stake-produced')).toHaveText('0 PLG')
      await expect(first.getByTestId('stake-remaining')).toHaveText('212 PLG')
      await expect(page.getByTestId('today-personal-power')).toHaveText('200')
      await page.getByTestId('stakes-tab-expired').click()
      await expect(page.getByTestId('stake-row')).toHaveCount(0)
      await page.getByTestId('stakes-tab-mining').click()
      await expect(page.getByTestId('stake-row')).toHaveCount(2)
      await snap(page, testInfo, 'my stakes')
    })

    await test.step('buy a junior node on chain', async () => {
      await page.goto('/node')
      const junior = page.locator('[data-testid="node-level"][data-level="junior"]')
      // The node's share of the pool with the nodes sold so far (other journeys buy nodes too): some PLG a day, its
      // value in USDT, a year of it and the APR on the price.
      await expect(junior.getByTestId('returns-daily')).toHaveText(/^[\d,.]+ PLG ≈ [\d,.]+ USDT$/)
      await expect(junior.getByTestId('returns-apr')).toHaveText(/^[\d,.]+%$/)
      await expect(page.getByTestId('help-dividends')).toContainText('1,000 PLG')
      await junior.getByTestId('node-buy').click()
      await expect(page.getByTestId('node-confirm-wallet')).toHaveText('900 USDT')
      await page.getByTestId('node-pay-chain').click()
      await snap(page, testInfo, 'node payment')
      await doubleTapOnce(page, page.getByTestId('review-confirm'), {
        route: api.intentCreate,
        how: 'dblclick',
        answer: 'Node purchased.',
        timeout: 30_000,
      })
      await expect(page.getByTestId('my-node')).toHaveCount(1)
      await expect(page.getByTestId('node-payment-refusal')).toHaveCount(0)
    })

    await test.step('deposit 100 USDT for 7 days', async () => {
      await page.goto('/finance')
      await expect(page.getByTestId('page-title')).toHaveText('Finance')
      await expect(page.getByTestId('finance-period')).toHaveCount(4)
      await page.locator('[data-testid="finance-period"][data-value="7"]').click()
      await page.getByTestId('finance-submit').click()
      await expect(toast(page, 'Please enter the deposit amount')).toBeVisible()
      await page.getByTestId('finance-amount').fill('100.000001')
      await expect(page.getByTestId('finance-blocked')).toHaveText('Insufficient balance.')
      await expect(page.getByTestId('finance-submit')).toBeDisabled()
      const week = page.locator('[data-testid="finance-period"][data-value="7"]')
      await expect(week.getByTestId('returns-daily')).toHaveText('0.07 USDT a day')
      await expect(week.getByTestId('returns-total')).toHaveText('0.5 USDT in total')
      await expect(week.getByTestId('returns-apr')).toHaveText('Est. APR 26.07%')
      await page.getByTestId('finance-amount').fill('100')
      await expect(page.getByTestId('finance-estimate-total')).toHaveText('0.5 USDT')
      await expect(page.getByTestId('finance-estimate-daily')).toHaveText('0.07 USDT')
      await expect(page.getByTestId('finance-estimate-apr')).toHaveText('26.07%')
      await expect(page.locator('[data-testid="finance-estimate-day"][data-day="7"] td')).toHaveText('0.5 USDT')
      const confirmDeposit = await openReview(page.getByTestId('finance-submit'))
      await expect(page.getByTestId('review-period')).toHaveText('7 days')
      await expect(page.getByTestId('review-output')).toHaveText('0.5 USDT')
      await expect(page.getByTestId('review-maturity')).not.toBeEmpty()
      await snap(page, testInfo, 'deposit review')
      await doubleTapOnce(page, confirmDeposit, {
        route: api.financeDeposit,
        how: 'dblclick',
        answer: 'Deposit successful',
      })
      const row = page.getByTestId('deposit-row')
      await expect(row).toHaveCount(1)
      await expect(row).toHaveAttribute('data-status', 'active')
      await expect(row.getByTestId('deposit-amount')).toHaveText('100 USDT')
      await snap(page, testInfo, 'deposit made')
      await row.click()
      await expect(page).toHaveURL(/\/finance\/detail\?id=\d+/)
      await expect(page.getByTestId('finance-redeem')).toBeDisabled()
      await expect(page.getByTestId('finance-redeem')).toContainText('Redeemable on')
    })

    const today = await serverToday(session)
    const plgBefore = await available(page, 'PLG')
    expect(plgBefore).toBe('100')

    await test.step('the next day is settled: each stake produced its first day', async () => {
      await settleThrough(addDays(today, 1))
      await openPledge(page)
      // 212 PLG over 30 days: 7.066666666 a day, the rest on the last day.
      const rows = page.getByTestId('stake-row')
      await expect(rows).toHaveCount(2)
      for (const row of await rows.all()) {
        // Outputs show 6 decimals, truncated; the order detail shows them exactly.
        await expect(row.getByTestId('stake-produced')).toHaveText('7.066666 PLG')
        await expect(row.getByTestId('stake-remaining')).toHaveText('204.933333 PLG')
      }
      await expect(page.getByTestId('today-output-amount').filter({ hasText: 'PLG' })).toBeVisible()
      await expect(page.getByTestId('today-output-amount').filter({ hasText: 'USDT' })).toHaveText('+0.07 USDT')
      await snap(page, testInfo, 'after the first settlement')
      // What the calculator said a day brings is what each stake produced.
      await expect(rows.first().getByTestId('stake-produced')).toHaveText(calculator.daily)

      await rows.first().click()
      await expect(page).toHaveURL(/\/pledge\/orderDetail\?id=\d+/)
      await expect(page.getByTestId('order-produced')).toHaveText('7.066666 PLG')
      await expect(page.getByTestId('order-remaining')).toHaveText('204.933333 PLG')
      await snap(page, testInfo, 'order detail')
      await page.getByTestId('stake-output-link').click()
      await expect(page).toHaveURL(/\/pledge\/detail\?id=\d+/)
      const output = page.getByTestId('output-row')
      await expect(output).toHaveCount(1)
      await expect(output.first()).toHaveAttribute('data-type', 'pledge_output')
      await expect(output.first()).toHaveAttribute('data-day', addDays(today, 1))
      // The day fits on one line at a phone's width.
      expect(
        await output
          .first()
          .locator('time')
          .evaluate((time) => time.getClientRects().length),
      ).toBe(1)
      await expect(output.first().getByTestId('output-coin')).toHaveText('PLG')
      await expect(output.first().getByTestId('output-amount')).toHaveText('+7.066666')
      await snap(page, testInfo, 'output detail')

      // The balance shows the output: both stakes' first day and the node's share of the day's node pool.
      await page.goto('/node')
      await expect(page.getByTestId('my-node-dividends')).not.toHaveText('0 PLG')
      const nodes = await callAs(session, api.myNodes.path, {})
      const dividends = BigInt((nodes.data as unknown as { list: { dividends: string }[] }).list[0]?.dividends ?? '0')
      expect(dividends).toBeGreaterThan(0n)
      const paidOut = 2n * 7_066_666_666n + dividends
      // Figures group the whole part (the node's share is over 1,000 PLG when it is the only node); balances show 4
      // decimals of PLG, truncated, the exact figure all 9.
      const grouped = (text: string) => text.replace(/^\d+/, (whole) => BigInt(whole).toLocaleString('en-US'))
      const shown = (units: bigint) => grouped(formatAmount(units - (units % 100_000n), 9))
      expect(await available(page, 'PLG')).toBe(shown(plgUnits(plgBefore) + paidOut))
      await page.locator('[data-testid="asset-row"][data-coin="PLG"]').getByTestId('asset-detail-link').click()
      // One payment for the day: both stakes' output and the node dividend in one ledger transfer, for that day.
      const paid = page.locator('[data-testid="money-log-row"][data-type="settlement"]')
      await expect(paid).toHaveCount(1)
      await expect(paid.getByTestId('money-log-amount')).toHaveText(`+${shown(paidOut)} PLG`)
      await expect(paid.getByTestId('money-log-day')).toHaveAttribute('data-day', addDays(today, 1))
      await expect(paid.getByTestId('money-log-exact')).toHaveText(`+${grouped(formatAmount(paidOut, 9))} PLG`)
      await snap(page, testInfo, 'balance with the output')
      // Home: the balance in USDT and the day's earnings, in USDT and per coin.
      await page.goto('/')
      await expect(page.getByTestId('home-earnings-day')).toHaveText(/^Earnings of /)
      await expect(page.getByTestId('home-earnings').locator('[data-coin="USDT"]')).toHaveText('+0.07 USDT')
      await expect(page.getByTestId('home-earnings').locator('[data-coin="PLG"]')).toBeVisible()
      await expect(page.getByTestId('home-balance')).toHaveText(/^≈ [\d,.]+ USDT$/)
      await snap(page, testInfo, 'home balance and earnings')
    })

    await test.step('the history charts show the output by day and the power, each with its table', async () => {
      await openPledge(page)
      const power = (await page.getByTestId('today-personal-power').textContent()) ?? ''
      await page.getByTestId('pledge-history-link').click()
      await expect(page).toHaveURL(/\/pledge\/history$/)
      // One chart per coin credited: the deposit's USDT output of the settled day, drawn and in its table.
      const usdt = page.getByTestId('history-output').filter({ hasText: 'USDT' })
      await expect(usdt.locator('canvas').first()).toBeVisible()
      await usdt.getByTestId('history-output-table-toggle').click()
      const day = usdt.getByTestId('history-output-table').locator(`tr[data-day="${addDays(today, 1)}"]`)
      await expect(day.locator('td').nth(1)).toHaveText('0.07 USDT')
      await expect(
        page.getByTestId('history-output').filter({ hasText: 'PLG' }).locator('canvas').first(),
      ).toBeVisible()
      // Power: its newest row is the figure the staking screen shows.
      const chart = page.getByTestId('history-power')
      await chart.getByTestId('history-power-table-toggle').click()
      await expect(
        chart.getByTestId('history-power-table').locator('tbody tr').first().locator('td').nth(1),
      ).toHaveText(power)
      // No one below this user yet: the team's chart says so.
      await expect(page.getByTestId('history-team')).toContainText('Nothing in this period yet')
      await snap(page, testInfo, 'history charts')
      await page.getByTestId('history-back').click()
      await expect(page).toHaveURL(/\/pledge$/)
    })

    await test.step('through the seventh day the deposit matures and is redeemed to the balance', async () => {
      await settleThrough(addDays(today, 7))
      await page.goto('/finance')
      await expect(page.getByTestId('deposit-row')).toHaveCount(0)
      await page.getByTestId('deposits-tab-expired').click()
      const row = page.getByTestId('deposit-row')
      await expect(row).toHaveCount(1)
      await expect(row).toHaveAttribute('data-status', 'expired')
      await expect(row.getByTestId('deposit-output')).toHaveText('0.5 USDT / 0.5 USDT')
      await row.click()
      await expect(page.getByTestId('output-row')).toHaveCount(7)
      const redeem = page.getByTestId('finance-redeem')
      await expect(redeem).toBeEnabled()
      await snap(page, testInfo, 'deposit matured')
      // The review says what goes back to the balance; no 'already redeemed' beside the success.
      const confirmRedeem = await openReview(redeem)
      await expect(page.getByTestId('review-receive')).toHaveText('100 USDT')
      await expect(page.getByTestId('review-output')).toHaveText('0.5 USDT')
      await doubleTapOnce(page, confirmRedeem, {
        route: api.financeRedeem,
        how: 'clicks',
        answer: 'Successfully redeemed to asset balance',
      })
      await expect(page.getByTestId('deposit-detail')).toHaveAttribute('data-status', 'redeemed')
      await expect(redeem).toBeDisabled()
      await snap(page, testInfo, 'deposit redeemed')
      // 100 USDT back with its 0.5 USDT of output.
      expect(await available(page, 'USDT')).toBe('100.5')

      await openPledge(page)
      // What the calculator said would be paid by day 7.
      for (const stake of await page.getByTestId('stake-row').all())
        await expect(stake.getByTestId('stake-produced')).toHaveText(calculator.bySeventh)
    })
  })
})
