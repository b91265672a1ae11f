// @vitest-environment happy-dom
import type { ClientConfig } from '@solpledge/contract/client'
import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { ClientConfigContext } from '@/lib/client-config.ts'
import { renderApp } from '@/test/harness.tsx'
import { SignatureLink } from './signature-link.tsx'

const SIGNATURE = '5VERv8NMvzbJMEkV8xnrLkEaWRtSz9CosKDYjCJjBRnbJLgp8uirBgmQpjKhoR4tjF3ZpRzrFmBV6UjKdiSZkQUW'
const config = (cluster: string): ClientConfig => ({
  cluster,
  testnet: cluster !== 'mainnet-beta',
  rpcUrl: 'http://127.0.0.1:8899',
  wsUrl: 'ws://127.0.0.1:8900',
  demoWallet: false,
  productSymbol: 'PLG',
})

const renderLink = (cluster: string) =>
  renderApp(
    <ClientConfigContext value={config(cluster)}>
      <SignatureLink signature={SIGNATURE} testId="tx" />
    </ClientConfigContext>,
  )

describe('SignatureLink', () => {
  it("links the shortened signature to the explorer of the app's cluster, in a new tab", async () => {
    const view = await renderLink('mainnet-beta')
    const link = screen.getByTestId('tx-link')
    expect(link.textContent).toBe(`${SIGNATURE.slice(0, 6)}…${SIGNATURE.slice(-6)}`)
    expect(link.getAttribute('href')).toBe(`https://explorer.solana.com/tx/${SIGNATURE}`)
    expect(link.getAttribute('target')).toBe('_blank')
    expect(link.getAttribute('rel')).toBe('noreferrer')
    expect(link.getAttribute('title')).toBe(SIGNATURE)
    view.unmount()

    await renderLink('devnet')
    expect(screen.getByTestId('tx-link').getAttribute('href')).toBe(
      `https://explorer.solana.com/tx/${SIGNATURE}?cluster=devnet`,
    )
  })

  it('copies the whole signature, or says to copy it by hand when the clipboard refuses', async () => {
    const writeText = vi.fn(async (_text: string) => {})
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true })
    await renderLink('localnet')
    expect(screen.getByTestId('tx-link').getAttribute('href')).toBe(
      `https://explorer.solana.com/tx/${SIGNATURE}?cluster=custom&customUrl=${encodeURIComponent('http://127.0.0.1:8899')}`,
    )
    await userEvent.click(screen.getByRole('button', { name: 'Copy the transaction signature' }))
    expect(writeText).toHaveBeenCalledWith(SIGNATURE)
    expect(await screen.findByText('Copy Successful')).toBeTruthy()

    writeText.mockRejectedValueOnce(new Error('denied'))
    const prompt = vi.fn()
    vi.stubGlobal('prompt', prompt)
    await userEvent.click(screen.getByTestId('tx-copy'))
    await waitFor(() => expect(prompt).toHaveBeenCalledWith(expect.stringMatching(/Ctrl\+C|⌘\+C/), SIGNATURE))
    expect(await screen.findByText('Copy Failed, Please Copy Manually')).toBeTruthy()
  })
})
