import { expect, it } from 'vitest'
import { toHex } from './format.ts'

it('encodes bytes as zero-padded lower-case hex', () => {
  expect(toHex(new Uint8Array([0, 1, 15, 16, 171, 255]))).toBe('00010f10abff')
  expect(toHex(new Uint8Array())).toBe('')
})
