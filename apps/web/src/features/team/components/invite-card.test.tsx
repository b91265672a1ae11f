// @vitest-environment happy-dom
import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { ADDRESS, renderSignedIn } from '@/test/harness.tsx'
import { InviteCard } from './invite-card.tsx'

/** The canvas calls the poster makes, through a 2D context that records them (happy-dom has no drawing). */
let drawn: { texts: string[]; squares: number }
const PNG = new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10])

beforeEach(() => {
  drawn = { texts: [], squares: 0 }
  const context = {
    createLinearGradient: () => ({ addColorStop: () => {} }),
    fillRect: () => {
      drawn.squares++
    },
    fillText: (text: string) => {
      drawn.texts.push(text)
    },
  }
  vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockImplementation(
    () => context as unknown as CanvasRenderingContext2D,
  )
  vi.spyOn(HTMLCanvasElement.prototype, 'toBlob').mockImplementation(function (this: HTMLCanvasElement, done) {
    expect([this.width, this.height]).toEqual([720, 1080])
    done(new Blob([PNG], { type: 'image/png' }))
  })
})
afterEach(() => {
  vi.restoreAllMocks()
  Reflect.deleteProperty(navigator, 'share')
  Reflect.deleteProperty(navigator, 'canShare')
})

const link = `${window.location.origin}/?code=${ADDRESS}`
const short = `${ADDRESS.slice(0, 4)}…${ADDRESS.slice(-4)}`

describe('InviteCard', () => {
  it('shows the invite link as a QR code and shares a poster of it with the link', async () => {
    const share = vi.fn(async (_data: ShareData) => {})
    Object.defineProperty(navigator, 'share', { value: share, configurable: true })
    Object.defineProperty(navigator, 'canShare', {
      value: (data: ShareData) => data.files?.[0]?.type === 'image/png',
      configurable: true,
    })
    await renderSignedIn(<InviteCard address={ADDRESS} />)
    const qr = await screen.findByRole('img', { name: 'QR code of your invite link' })
    expect(Number(qr.getAttribute('data-size'))).toBeGreaterThanOrEqual(33)
    expect(qr.querySelector('path')?.getAttribute('d')).toMatch(/^M4 4h7v1h-7z/)
    expect(screen.getByTestId('invite-link').textContent).toBe(link)

    await userEvent.click(screen.getByRole('button', { name: 'Share' }))
    await waitFor(() => expect(share).toHaveBeenCalledTimes(1))
    const shared = share.mock.calls[0]?.[0] as ShareData
    expect(shared).toMatchObject({
      title: 'Join me on solpledge',
      text: 'Join me on solpledge with my invite link',
      url: link,
    })
    const poster = shared.files?.[0] as File
    expect([poster.name, poster.type]).toEqual(['solpledge-invite.png', 'image/png'])
    expect(new Uint8Array(await poster.arrayBuffer())).toEqual(PNG)
    // The poster: the app's name, the invitation, the code (a square per dark module), the short address, the link.
    expect(drawn.texts).toEqual(['solpledge', 'Join me on solpledge', 'Scan to join with my invite code', short, link])
    expect(drawn.squares).toBeGreaterThan(300)
    expect(screen.queryByText('Invite poster saved: share it from your downloads')).toBeNull()
  })

  it('saves the poster where the browser cannot share files', async () => {
    const createObjectURL = vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:poster')
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {})
    const clicked: { href: string; download: string }[] = []
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push({ href: this.href, download: this.download })
    })
    await renderSignedIn(<InviteCard address={ADDRESS} />)
    await screen.findByRole('img', { name: 'QR code of your invite link' })
    await userEvent.click(screen.getByRole('button', { name: 'Share' }))
    expect(await screen.findByText('Invite poster saved: share it from your downloads')).toBeTruthy()
    expect(clicked).toEqual([{ href: 'blob:poster', download: 'solpledge-invite.png' }])
    expect(createObjectURL.mock.calls[0]?.[0]).toMatchObject({ type: 'image/png' })
  })
})
