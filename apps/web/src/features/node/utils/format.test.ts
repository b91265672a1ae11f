import type { AssetBalance } from '@solpledge/contract'
import { describe, expect, it } from 'vitest'
import { bpsToPercent, findAsset, knownLevel } from './format.ts'

describe('bpsToPercent', () => {
  it.each([
    [0, '0%'],
    [5, '0.05%'],
    [50, '0.5%'],
    [500, '5%'],
    [1250, '12.5%'],
    [1234, '12.34%'],
    [10000, '100%'],
    [-250, '-2.5%'],
  ])('%i bps → %s', (bps, text) => {
    expect(bpsToPercent(bps)).toBe(text)
  })
})

describe('knownLevel', () => {
  it('knows the three levels and nothing else', () => {
    expect(knownLevel('junior')).toBe('junior')
    expect(knownLevel('senior')).toBe('senior')
    expect(knownLevel('super')).toBe('super')
    expect(knownLevel('mega')).toBeNull()
    expect(knownLevel('')).toBeNull()
  })
})

describe('findAsset', () => {
  const asset = (coin: string, symbol: string) => ({ coin, symbol, decimals: 6 }) as AssetBalance
  const assets = [asset('USDT', 'USDT'), asset('PLG', 'PLG')]

  it('matches by coin or symbol', () => {
    expect(findAsset(assets, 'PLG')?.coin).toBe('PLG')
    expect(findAsset([asset('plg', 'PLG')], 'PLG')?.coin).toBe('plg')
  })

  it('is undefined when missing or not loaded', () => {
    expect(findAsset(assets, 'SOL')).toBeUndefined()
    expect(findAsset(undefined, 'USDT')).toBeUndefined()
  })
})
