import fs from 'node:fs'
import { api, parseCsv } from '@solpledge/contract'
import {
  doubleTapOnce,
  expect,
  newUser,
  onChainBalance,
  openReview,
  rpc,
  snap,
  snapshotLiabilities,
  test,
} from './fixtures.ts'
import { topUp } from './top-up.ts'

test.describe('assets', () => {
  test('the demo wallet gets test tokens and tops up 100 USDT on chain', async ({ page }, testInfo) => {
    const { wallet } = await newUser(page)
    // The chain's RPC and WebSocket endpoints are other origins: the Content-Security-Policy must let the page reach
    // both (the fixture fails the journey on any violation).
    const sockets: string[] = []
    page.on('websocket', (socket) => sockets.push(new URL(socket.url()).origin))
    await page.goto('/assets')
    await expect(page.getByTestId('page-title')).toHaveText('Assets')
    await page.getByTestId('faucet-button').click()
    const walletUsdt = page.locator('[data-testid="wallet-balance"][data-coin="USDT"]')
    await expect(walletUsdt).toContainText('1,000')
    const before = await onChainBalance(wallet.address, 'USDT')
    expect(before).toBe(1_000_000_000n)
    await snap(page, testInfo, 'after faucet')

    const usdt = page.locator('[data-testid="asset-row"][data-coin="USDT"]')
    await usdt.getByTestId('recharge-button').click()
    await expect(page.getByTestId('recharge-dialog')).toBeVisible()
    await page.getByTestId('recharge-submit').click()
    await expect(page.getByTestId('toast').filter({ hasText: 'Please enter the recharge quantity' })).toBeVisible()
    await page.getByTestId('recharge-amount').fill('100')
    await snap(page, testInfo, 'top-up dialog')
    // The review shows what is paid and credited; a double tap on Confirm pays once: one intent, 100 USDT out of the wallet.
    const confirmTopUp = await openReview(page.getByTestId('recharge-submit'))
    await expect(page.getByTestId('review-amount')).toHaveText('100 USDT')
    await expect(page.getByTestId('review-address')).toHaveText(wallet.address)
    await snap(page, testInfo, 'top-up review')
    await doubleTapOnce(page, confirmTopUp, {
      route: api.intentCreate,
      how: 'clicks',
      answer: 'Recharge successfully',
      timeout: 30_000,
    })
    await expect(usdt.getByTestId('asset-available')).toHaveText('100')
    // Each asset with its icon and USDT value, and the total.
    await expect(usdt.getByTestId('asset-value')).toHaveText('≈ 100 USDT')
    await expect(page.getByTestId('asset-total-value')).toHaveText('100')
    await expect(usdt.locator('img.token-icon')).toHaveAttribute('src', '/tokens/usdt.svg')
    await expect(page.getByTestId('solvency')).toContainText('Reserves vs what we owe you')
    expect(await onChainBalance(wallet.address, 'USDT')).toBe(before - 100_000_000n)
    expect(sockets).toContain(new URL(process.env.E2E_WS_URL as string).origin)
    await expect(walletUsdt).toContainText('900')
    await expect(page.locator('[data-testid="solvency-row"][data-coin="USDT"]')).toHaveAttribute('data-covered', 'true')
    await snap(page, testInfo, 'after top-up')

    // Proof of liabilities: after a snapshot, the page checks this user's inclusion itself, against the memo it reads
    // from the chain's RPC (not our API), and offers the proof file for the standalone verifier.
    const { snapshot_id } = await snapshotLiabilities()
    await page.reload()
    const inclusion = page.getByTestId('inclusion')
    await expect(inclusion).toHaveAttribute('data-state', 'included', { timeout: 30_000 })
    await expect(inclusion).toContainText(`Your balance is included in snapshot #${snapshot_id}`)
    await expect(page.locator('[data-testid="liabilities-row"][data-coin="USDT"]')).toHaveAttribute(
      'data-covered',
      'true',
    )
    const download = page.waitForEvent('download')
    await page.getByTestId('proof-download').click()
    const file = JSON.parse(fs.readFileSync((await (await download).path()) as string, 'utf8'))
    expect(file).toMatchObject({ snapshot_id, address: wallet.address })
    await snap(page, testInfo, 'inclusion verified')

    await usdt.getByTestId('asset-detail-link').click()
    await expect(page).toHaveURL(/\/assets\/detail\?coin=USDT/)
    const rows = page.getByTestId('money-log-row')
    await expect(rows).toHaveCount(1)
    await expect(rows.first()).toHaveAttribute('data-type', 'deposit')
    await expect(rows.first().getByTestId('money-log-amount')).toContainText('100')
    await snap(page, testInfo, 'asset detail')
  })

  test('withdraws 50 USDT: after the sender job, the wallet holds 50 less the fee more', async ({ page }, testInfo) => {
    const { wallet, session } = await newUser(page)
    // 100 USDT topped up through the API (the journey above taps through it).
    await topUp(wallet, session, 'USDT', 100_000_000n)
    await page.goto('/assets')
    const usdt = page.locator('[data-testid="asset-row"][data-coin="USDT"]')
    await expect(usdt.getByTestId('asset-available')).toHaveText('100')
    const beforeWithdrawal = await onChainBalance(wallet.address, 'USDT')

    await usdt.getByTestId('withdraw-button').click()
    await expect(page.getByTestId('withdraw-dialog')).toBeVisible()
    await page.getByTestId('withdraw-amount').fill('5')
    await page.getByTestId('withdraw-submit').click()
    await expect(
      page.getByTestId('toast').filter({ hasText: 'The withdrawal amount cannot be less than 10 USDT' }),
    ).toBeVisible()
    await page.getByTestId('withdraw-amount').fill('50')
    await expect(page.getByTestId('withdraw-receive')).toContainText('49')
    await snap(page, testInfo, 'withdraw dialog')
    // The review shows amount, fee, what arrives and where; a double tap on Confirm withdraws once.
    const confirmWithdrawal = await openReview(page.getByTestId('withdraw-submit'))
    await expect(page.getByTestId('review-amount')).toHaveText('50 USDT')
    await expect(page.getByTestId('review-receive')).toContainText('49')
    await expect(page.getByTestId('review-address')).toHaveText(wallet.address)
    await snap(page, testInfo, 'withdraw review')
    await doubleTapOnce(page, confirmWithdrawal, {
      route: api.withdraw,
      how: 'dblclick',
      answer: 'Withdrawal requested',
    })
    await expect(usdt.getByTestId('asset-available')).toHaveText('50')

    await usdt.getByTestId('asset-detail-link').click()
    await expect(page.getByTestId('withdrawal-row')).toHaveCount(1)
    const row = page.getByTestId('withdrawal-row').first()
    await expect(row).toHaveAttribute('data-status', 'confirmed', { timeout: 30_000 })
    expect(await onChainBalance(wallet.address, 'USDT')).toBe(beforeWithdrawal + 49_000_000n)

    // Its transaction links to the explorer of the local chain: a custom cluster read through the chain's RPC URL,
    // which knows the transaction.
    const link = row.getByTestId('withdrawal-signature-link')
    const signature = (await link.getAttribute('title')) as string
    const href = (await link.getAttribute('href')) as string
    const explorer = new URL(href)
    expect(`${explorer.origin}${explorer.pathname}`).toBe(`https://explorer.solana.com/tx/${signature}`)
    expect(explorer.searchParams.get('cluster')).toBe('custom')
    const customUrl = explorer.searchParams.get('customUrl') as string
    const found = await rpc(
      'getTransaction',
      [signature, { encoding: 'json', commitment: 'confirmed', maxSupportedTransactionVersion: 0 }],
      customUrl,
    )
    expect({ customUrl, found }).toMatchObject({ found: { transaction: { signatures: [signature] } } })
    await expect(row.getByTestId('withdrawal-signature-copy')).toBeVisible()

    // In the history the withdrawal is one row with its state (not its request, payout and fee as three), with the link.
    const history = page.getByTestId('money-log-row')
    await expect(history).toHaveCount(2)
    const withdrawal = history.first()
    await expect(withdrawal).toHaveAttribute('data-type', 'withdrawal')
    await expect(withdrawal).toHaveAttribute('data-status', 'confirmed')
    await expect(withdrawal.getByTestId('money-log-amount')).toHaveText('-50 USDT')
    await withdrawal.locator('summary').click()
    await expect(withdrawal.getByTestId('money-log-signature-link')).toHaveAttribute('href', href)
    await expect(withdrawal.getByTestId('money-log-exact')).toHaveCount(4)
    await expect(history.last()).toHaveAttribute('data-type', 'deposit')
    await snap(page, testInfo, 'withdrawal confirmed')

    // The history as a CSV file: every entry in USDT with the balance after it, the payout's transaction named.
    const csv = page.waitForEvent('download')
    await page.getByTestId('money-log-export').click()
    expect((await csv).suggestedFilename()).toBe('solpledge-history.csv')
    const [header, ...lines] = parseCsv(fs.readFileSync((await (await csv).path()) as string, 'utf8'))
    expect(header).toEqual(api.moneyLogCsv.csv?.columns)
    expect(lines.find((line) => line[1] === 'withdraw_pay')?.[6]).toBe(signature)
    expect(lines.at(-1)?.slice(1, 6)).toEqual(['deposit', 'USDT', 'available', '100', '100'])
  })
})
