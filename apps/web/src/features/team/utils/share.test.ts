import { describe, expect, it, vi } from 'vitest'
import { shareOrDownload } from './share.ts'

const file = new File([new Uint8Array([137, 80, 78, 71])], 'invite.png', { type: 'image/png' })
const data = { title: 'Join me', text: 'Join me on solpledge', url: 'https://example.com/?code=abc' }

describe('shareOrDownload', () => {
  it('shares the file with the link and its text where the Web Share API takes files', async () => {
    const share = vi.fn(async (_data: ShareData) => {})
    const canShare = vi.fn((shared: ShareData) => shared.files?.[0] === file)
    const download = vi.fn()
    expect(await shareOrDownload(file, data, { share, canShare, download })).toBe('shared')
    expect(share).toHaveBeenCalledWith({ ...data, files: [file] })
    expect(download).not.toHaveBeenCalled()
  })

  it('saves the file where there is no Web Share API or it cannot take files', async () => {
    const download = vi.fn()
    expect(await shareOrDownload(file, data, { download })).toBe('downloaded')
    const share = vi.fn(async () => {})
    expect(await shareOrDownload(file, data, { share, canShare: () => false, download })).toBe('downloaded')
    expect(share).not.toHaveBeenCalled()
    expect(download).toHaveBeenCalledTimes(2)
    expect(download).toHaveBeenCalledWith(file)
  })

  it('takes a closed share sheet as the user’s choice, and saves the file when sharing fails', async () => {
    const download = vi.fn()
    const aborted = Object.assign(new Error('closed'), { name: 'AbortError' })
    const closed = vi.fn(async () => Promise.reject(aborted))
    expect(await shareOrDownload(file, data, { share: closed, canShare: () => true, download })).toBe('cancelled')
    expect(download).not.toHaveBeenCalled()
    const refused = vi.fn(async () => Promise.reject(Object.assign(new Error('no'), { name: 'NotAllowedError' })))
    expect(await shareOrDownload(file, data, { share: refused, canShare: () => true, download })).toBe('downloaded')
    expect(download).toHaveBeenCalledWith(file)
  })
})
