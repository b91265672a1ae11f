import { describe, expect, it } from 'vitest'
import { diff } from './diff.ts'

describe('diff', () => {
  it('is empty for equal values', () => {
    expect(diff({ a: [1, { b: '2' }] }, { a: [1, { b: '2' }] })).toEqual([])
  })
  it('names changed leaves by path, keys sorted, arrays by index', () => {
    expect(diff({ z: 1, a: { b: '1', c: [1, 2] } }, { z: 2, a: { b: '1', c: [1, 3, 4] } })).toEqual([
      { path: 'a.c[1]', before: 2, after: 3 },
      { path: 'a.c[2]', before: null, after: 4 },
      { path: 'z', before: 1, after: 2 },
    ])
  })
  it('reports a whole value when its shape changes, and keys on one side only', () => {
    expect(diff({ a: [1], b: 1 }, { a: { x: 1 }, c: true })).toEqual([
      { path: 'a', before: [1], after: { x: 1 } },
      { path: 'b', before: 1, after: null },
      { path: 'c', before: null, after: true },
    ])
  })
})
