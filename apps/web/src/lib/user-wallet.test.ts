import type { AssetBalance } from '@solpledge/contract/client'
import { describe, expect, it } from 'vitest'
import { findAsset } from './user-wallet.ts'

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
