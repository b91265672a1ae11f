import { describe, expect, it, vi } from 'vitest'
import { copyShortcut, copyText } from './copy-text.ts'

describe('copyText', () => {
  it('writes to the clipboard and shows no prompt', async () => {
    const writeText = vi.fn(async () => {})
    const prompt = vi.fn()
    expect(await copyText('abc', 'Copy: Ctrl+C', { clipboard: { writeText }, prompt })).toBe(true)
    expect(writeText).toHaveBeenCalledWith('abc')
    expect(prompt).not.toHaveBeenCalled()
  })

  it('falls back to a prompt holding the text when the clipboard refuses or is missing', async () => {
    const prompt = vi.fn()
    const writeText = vi.fn(async () => {
      throw new DOMException('denied', 'NotAllowedError')
    })
    expect(await copyText('abc', 'Copy: Ctrl+C', { clipboard: { writeText }, prompt })).toBe(false)
    expect(prompt).toHaveBeenCalledWith('Copy: Ctrl+C', 'abc')
    expect(await copyText('xyz', 'Copy: ⌘+C', { clipboard: undefined, prompt })).toBe(false)
    expect(prompt).toHaveBeenLastCalledWith('Copy: ⌘+C', 'xyz')
  })

  it('names the copy shortcut of the platform', () => {
    expect(copyShortcut('MacIntel')).toBe('⌘+C')
    expect(copyShortcut('iPhone')).toBe('⌘+C')
    expect(copyShortcut('Linux x86_64')).toBe('Ctrl+C')
    expect(copyShortcut('Win32')).toBe('Ctrl+C')
  })
})
