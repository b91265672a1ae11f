import { describe, expect, it } from 'vitest'
import { tabState } from './bottom-nav.tsx'

const home = { to: '/', also: ['/finance', '/swap', '/quick-trade', '/notice'] }
const team = { to: '/team', also: ['/rank'] }
const assets = { to: '/assets' }

describe('tabState', () => {
  it("marks a tab's own screen as the page and the screens below it as its section", () => {
    expect(tabState('/', home)).toBe('page')
    expect(tabState('/assets', assets)).toBe('page')
    expect(tabState('/Assets/', assets)).toBe('page')
    expect(tabState('/assets/detail', assets)).toBe('true')
    expect(tabState('/assetsx', assets)).toBeUndefined()
  })

  it('keeps the tab a secondary screen is reached from highlighted, and only that one', () => {
    expect(tabState('/rank', team)).toBe('true')
    expect(tabState('/rank', home)).toBeUndefined()
    for (const path of ['/finance', '/finance/detail', '/swap', '/quick-trade/buy', '/notice/detail/7']) {
      expect(tabState(path, home)).toBe('true')
      expect(tabState(path, team)).toBeUndefined()
    }
    expect(tabState('/pledge', home)).toBeUndefined()
  })
})
