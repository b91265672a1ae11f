import { describe, expect, it } from 'vitest'
import { shorten } from './shorten.ts'

describe('shorten', () => {
  it('keeps the start and the end of a long identifier', () => {
    const signature = '5VERv8NMvzbJMEkV8xnrLkEaWRtSz9CosKDYjCJjBRnbJLgp8uirBgmQpjKhoR4tjF3ZpRzrFmBV6UjKdiSZkQUW'
    expect(shorten(signature)).toBe('5VERv8…SZkQUW')
    expect(shorten(signature, 4)).toBe('5VER…kQUW')
  })

  it('leaves short text as it is', () => {
    expect(shorten('abcdefghijklm')).toBe('abcdefghijklm')
    expect(shorten('')).toBe('')
  })
})
