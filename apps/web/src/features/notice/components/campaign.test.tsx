// @vitest-environment happy-dom

import { api, type UserCampaign } from '@solpledge/contract/client'
import { USDT } from '@solpledge/test-fixtures'
import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { MemoryRouter, Route, Routes } from 'react-router'
import { describe, expect, it } from 'vitest'
import { WalletModalProvider } from '@/lib/wallet/wallet-modal.tsx'
import { fakeApi, renderApp, renderSignedIn } from '@/test/harness.tsx'
import { campaignSeenKey } from '../utils/campaign-seen.ts'
import { CampaignEntry } from './campaign-entry.tsx'
import { CampaignPopup } from './campaign-popup.tsx'
import { CampaignScreen } from './campaign-screen.tsx'

const campaign = (id: string, over: Partial<UserCampaign> = {}): UserCampaign => ({
  id,
  title: 'Bangkok conference',
  body: '<p>Reach a tier, <strong>win a place</strong>.</p><script>alert(1)</script>',
  lang: 'en',
  starts_at: '2026-11-01T00:00:00.000Z',
  ends_at: '2026-12-01T00:00:00.000Z',
  status: 'running',
  decimals: 6,
  tiers: [
    { min_direct: 1, min_fuel: (3000n * USDT).toString(), reward: { kind: 'trip', places: 2 } },
    { min_direct: 3, min_fuel: (10_000n * USDT).toString(), reward: { kind: 'node', level: 'junior' } },
  ],
  direct_count: 2,
  fuel: (4500n * USDT).toString(),
  tier: 1,
  ...over,
})

/** The dialog's close button (the mask is a button named Close too). */
const closeButton = () =>
  screen.getAllByRole('button', { name: 'Close' }).find((button) => button.className === 'modal-close') as HTMLElement

const home = (
  <MemoryRouter>
    <Routes>
      <Route
        path="/"
        element={
          <>
            <CampaignEntry />
            <CampaignPopup />
          </>
        }
      />
      <Route path="/campaign" element={<p>campaign page</p>} />
    </Routes>
  </MemoryRouter>
)

describe('CampaignPopup', () => {
  it('is not asked for, nor shown, while nobody is signed in', async () => {
    const calls = fakeApi({})
    await renderApp(home)
    // The query's fetch starts when the component mounts (render flushes it): none was made.
    expect(calls).toEqual([])
    expect(screen.queryByTestId('campaign-popup')).toBeNull()
    expect(screen.queryByTestId('campaign-entry')).toBeNull()
  })

  it('opens once per campaign for a signed-in user, its text as the rich text of notices', async () => {
    fakeApi({ [api.campaignList.path]: () => ({ data: { list: [campaign('7')] } }) })
    const first = await renderSignedIn(home)
    const dialog = await screen.findByTestId('campaign-popup')
    expect(dialog.textContent).toContain('Bangkok conference')
    expect(dialog.querySelector('strong')?.textContent).toBe('win a place')
    expect(dialog.querySelector('script')).toBeNull()
    expect(localStorage.getItem(campaignSeenKey('7'))).toBeNull()
    await userEvent.click(closeButton())
    await waitFor(() => expect(screen.queryByTestId('campaign-popup')).toBeNull())
    // Kept on the device, by campaign: not once per visit.
    expect(localStorage.getItem(campaignSeenKey('7'))).toBe('1')
    first.unmount()
    await renderSignedIn(home)
    await screen.findByTestId('campaign-entry')
    expect(screen.queryByTestId('campaign-popup')).toBeNull()
  })

  it('opens a campaign not seen yet after one seen on an earlier visit, and leads to the progress page', async () => {
    // Seen on an earlier visit (the storage is all that is left of it).
    localStorage.setItem(campaignSeenKey('8'), '1')
    fakeApi({ [api.campaignList.path]: () => ({ data: { list: [campaign('8'), campaign('9')] } }) })
    await renderSignedIn(home)
    const dialog = await screen.findByTestId('campaign-popup')
    expect(dialog.textContent).toContain('View my progress')
    await userEvent.click(screen.getByTestId('campaign-popup-progress'))
    expect(await screen.findByText('campaign page')).toBeTruthy()
    expect(localStorage.getItem(campaignSeenKey('9'))).toBe('1')
  })
})

describe('CampaignScreen', () => {
  const page = (
    <WalletModalProvider>
      <MemoryRouter initialEntries={['/campaign']}>
        <Routes>
          <Route path="/campaign" element={<CampaignScreen />} />
        </Routes>
      </MemoryRouter>
    </WalletModalProvider>
  )

  it("shows the progress to each tier in the user's figures, and the result once ended", async () => {
    fakeApi({
      [api.campaignList.path]: () => ({
        data: { list: [campaign('10'), campaign('11', { status: 'ended', tier: 0, title: 'Last month' })] },
      }),
    })
    await renderSignedIn(page)
    const [running, ended] = await screen.findAllByTestId('campaign-card')
    expect(running?.querySelector('[data-testid="campaign-result"]')?.textContent).toBe('You have reached tier 1')
    const tiers = running?.querySelectorAll('[data-testid="campaign-tier"]') ?? []
    expect([...tiers].map((tier) => tier.getAttribute('data-reached'))).toEqual(['true', 'false'])
    expect(tiers[1]?.textContent).toContain('A junior node')
    expect(tiers[1]?.textContent).toContain('2 / 3')
    expect(tiers[1]?.textContent).toContain('4,500 / 10,000')
    expect(tiers[1]?.textContent).toContain('Still to go: 1 direct referrals and 5,500 USDT of fuel')
    expect(tiers[1]?.querySelector('[data-testid="campaign-fuel"]')?.getAttribute('data-percent')).toBe('45')
    expect(tiers[0]?.textContent).toContain('Trip places: 2')
    expect(ended?.querySelector('[data-testid="campaign-result"]')?.textContent).toBe('Result: no tier reached')
  })

  it('asks a signed-out visitor to connect, and says when there is no campaign', async () => {
    const calls = fakeApi({ [api.campaignList.path]: () => ({ data: { list: [] } }) })
    const view = await renderApp(page)
    expect(await screen.findByTestId('campaign-signed-out')).toBeTruthy()
    expect(calls).toEqual([])
    view.unmount()
    await renderSignedIn(page)
    expect(await screen.findByText('No campaign is running.')).toBeTruthy()
  })
})
