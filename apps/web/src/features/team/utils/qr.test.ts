import { describe, expect, it } from 'vitest'
import { type QrMatrix, qrMatrix, qrPath } from './qr.ts'

describe('qrMatrix', () => {
  it('encodes a link as a QR code with its three finder patterns', async () => {
    const qr = await qrMatrix('https://solpledge.example/?code=DemoWa11etAddress1111111111111111111111111')
    // A link this long needs at least version 4 at level M: 33 modules a side.
    expect(qr.size).toBeGreaterThanOrEqual(33)
    const finder = (left: number, top: number) =>
      [0, 1, 2, 3, 4, 5, 6].every((i) => qr.dark(left + i, top) && qr.dark(left, top + i)) &&
      !qr.dark(left + 1, top + 1) &&
      qr.dark(left + 3, top + 3)
    expect(finder(0, 0)).toBe(true)
    expect(finder(qr.size - 7, 0)).toBe(true)
    expect(finder(0, qr.size - 7)).toBe(true)
    // Different texts, different codes.
    const other = await qrMatrix('https://solpledge.example/?code=Other')
    expect(qrPath(other)).not.toBe(qrPath(qr))
  })
})

describe('qrPath', () => {
  it('draws each row as runs of dark modules, offset by the margin', () => {
    // Row 0: dark, dark, light; row 1: light, dark, dark.
    const cells = [
      [true, true, false],
      [false, true, true],
    ]
    const qr: QrMatrix = { size: 3, dark: (x, y) => cells[y]?.[x] ?? false }
    expect(qrPath(qr)).toBe('M0 0h2v1h-2zM1 1h2v1h-2z')
    expect(qrPath(qr, 4)).toBe('M4 4h2v1h-2zM5 5h2v1h-2z')
  })
})
