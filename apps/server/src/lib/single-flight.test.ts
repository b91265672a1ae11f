import { describe, expect, it } from 'vitest'
import { singleFlight } from './single-flight.ts'

describe('singleFlight', () => {
  it('runs one computation for the calls made while it runs and within the time after it', async () => {
    let clock = 1_000
    let runs = 0
    let finish: (value: number) => void = () => {}
    const read = singleFlight(
      5_000,
      () =>
        new Promise<number>((resolve) => {
          runs++
          finish = resolve
        }),
      () => clock,
    )
    const waiting = [read(), read(), read()]
    clock += 60_000 // a slow read: later callers still join it
    waiting.push(read())
    expect(runs).toBe(1)
    finish(7)
    expect(await Promise.all(waiting)).toEqual([7, 7, 7, 7])
    clock += 4_999
    expect(await read()).toBe(7)
    expect(runs).toBe(1)
    clock += 1
    const next = read()
    expect(runs).toBe(2)
    finish(8)
    expect(await next).toBe(8)
  })

  it('keeps no failure: the next call reads again', async () => {
    let runs = 0
    const read = singleFlight(5_000, async () => {
      runs++
      if (runs === 1) throw new Error('rpc down')
      return runs
    })
    await expect(Promise.all([read(), read()])).rejects.toThrow('rpc down')
    expect(runs).toBe(1)
    expect(await read()).toBe(2)
    expect(await read()).toBe(2)
  })
})
