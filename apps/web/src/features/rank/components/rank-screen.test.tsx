// @vitest-environment happy-dom
import { api } from '@solpledge/contract/client'
import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { MemoryRouter, Route, Routes } from 'react-router'
import { describe, expect, it } from 'vitest'
import { fakeApi, renderSignedIn } from '@/test/harness.tsx'
import { RankScreen } from './rank-screen.tsx'

const board = (mine: { rank: number | null; power: string }) => ({
  data: {
    type: 'direct',
    month: '2026-11',
    decimals: 6,
    list: [],
    mine,
    computed_at: null,
    next_update_at: '2026-11-28T08:00:00.000Z',
  },
})

const renderRank = (entries: string[]) =>
  renderSignedIn(
    <MemoryRouter initialEntries={entries} initialIndex={entries.length - 1}>
      <Routes>
        <Route path="/rank" element={<RankScreen />} />
        <Route path="*" element={<p>came from</p>} />
      </Routes>
    </MemoryRouter>,
  )

describe('RankScreen', () => {
  it('says "Not ranked" alone when the user has no new power, and the place and power when ranked', async () => {
    fakeApi({ [api.ranking.path]: () => board({ rank: null, power: '0' }) })
    const view = await renderRank(['/rank'])
    expect(await screen.findByTestId('rank-mine')).toHaveProperty('textContent', 'My positionNot ranked')
    expect(screen.queryByTestId('rank-mine-power')).toBeNull()
    view.unmount()

    fakeApi({ [api.ranking.path]: () => board({ rank: 3, power: '250000000' }) })
    await renderRank(['/rank'])
    expect(await screen.findByTestId('rank-mine-rank')).toHaveProperty('textContent', '#3')
    expect(screen.getByTestId('rank-mine-power')).toHaveProperty('textContent', '250')
  })

  it('goes back to the screen it was opened from, or to the team page when opened directly', async () => {
    fakeApi({ [api.ranking.path]: () => board({ rank: null, power: '0' }) })
    const view = await renderRank(['/', '/rank'])
    await userEvent.click(screen.getByTestId('back'))
    expect(await screen.findByText('came from')).toBeTruthy()
    view.unmount()

    await renderRank(['/rank'])
    expect(screen.getByTestId('back').getAttribute('href')).toBe('/team')
  })
})
