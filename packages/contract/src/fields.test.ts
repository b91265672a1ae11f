import fc from 'fast-check'
import { Value } from 'typebox/value'
import { describe, expect, it } from 'vitest'
import { enumName, Id, MultilineText, NumberedEnum, Text } from './fields.ts'
import { decimalUpTo, isId, MAX_ID } from './ids.ts'

describe('shared field schemas', () => {
  it('decimalUpTo(max) matches exactly the decimals 1 … max', () => {
    for (const max of [1n, 9n, 10n, 99n, 100n, 709n, 1000n, MAX_ID]) {
      const pattern = new RegExp(decimalUpTo(max))
      fc.assert(
        fc.property(fc.bigInt({ min: 0n, max: max * 11n }), (n) => {
          expect(pattern.test(n.toString()), `${n} ≤ ${max}`).toBe(n >= 1n && n <= max)
        }),
      )
      expect(pattern.test(`0${max}`)).toBe(false)
    }
  })

  it('Id takes 1 … 2^63-1 and nothing beyond bigint', () => {
    expect(Value.Check(Id, '1')).toBe(true)
    expect(Value.Check(Id, MAX_ID.toString())).toBe(true)
    for (const id of ['0', '01', '-1', '1.0', '9223372036854775808', '9999999999999999999', ''])
      expect(Value.Check(Id, id), id).toBe(false)
    expect(isId('9223372036854775807')).toBe(true)
    expect(isId('9223372036854775808')).toBe(false)
  })

  it('text refuses NUL, other control characters and lone surrogates; multi-line text keeps tabs and line breaks', () => {
    const line = Text({ maxLength: 50 })
    const lines = MultilineText({ maxLength: 50 })
    for (const ok of ['', 'abc', 'héllo 世界', 'emoji 😀', 'https://x.y/z?a=1'])
      expect([Value.Check(line, ok), Value.Check(lines, ok)], ok).toEqual([true, true])
    for (const bad of ['\u0000', 'a\u0000b', '\u0001', '\u001b[31m', '\u007f', '\ud800', 'x\udfffy'])
      expect([Value.Check(line, bad), Value.Check(lines, bad)], JSON.stringify(bad)).toEqual([false, false])
    for (const multi of ['a\nb', 'a\r\nb', 'a\tb'])
      expect([Value.Check(line, multi), Value.Check(lines, multi)], JSON.stringify(multi)).toEqual([false, true])
    expect(Value.Check(line, 'x'.repeat(51))).toBe(false)
  })
})

describe('NumberedEnum', () => {
  const names = ['direct', 'team'] as const
  const schema = NumberedEnum(names, 'The tab')
  it('takes the names, their numbers 1 … n and those numbers as strings, and nothing else', () => {
    for (const value of ['direct', 'team', 1, 2, '1', '2']) expect(Value.Check(schema, value), String(value)).toBe(true)
    for (const value of ['weekly', 0, 3, '0', '3', '01', ' 1', '1.0', 1.5, -1, true, null, '', 'Direct'])
      expect(Value.Check(schema, value), String(value)).toBe(false)
  })
  it('names the value', () => {
    expect([1, '1', 'direct', 2, '2', 'team'].map((value) => enumName(names, value))).toEqual([
      'direct',
      'direct',
      'direct',
      'team',
      'team',
      'team',
    ])
  })
})
