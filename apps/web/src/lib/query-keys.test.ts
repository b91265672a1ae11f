import { QueryClient, type QueryKey } from '@tanstack/react-query'
import { describe, expect, it } from 'vitest'
import { domainKeys, INVALIDATES, invalidateAfter, type MoneyAction } from './query-keys.ts'
import { todayQueryOptions } from './today.ts'
import { userWalletKey } from './user-wallet.ts'

const today = todayQueryOptions('A').queryKey
const wallet = userWalletKey('A')
const price = [...domainKeys.home, 'price']
const book = [...domainKeys.trade, 'market', 10]
const nodes = [...domainKeys.node, 'mine', 'A']

/** Which of `keys` are stale after `action`, in a cache where they were all fresh. */
async function staleAfter(action: MoneyAction, keys: QueryKey[]) {
  const client = new QueryClient()
  for (const key of keys) client.setQueryData(key, 'fresh')
  await invalidateAfter(client, action)
  return keys.filter((key) => client.getQueryState(key)?.isInvalidated)
}

describe('the invalidation map', () => {
  const all = [today, wallet, price, book, nodes]

  it("a stake refreshes today's figures (one entry for the home and pledge screens) and the balances", async () => {
    expect(await staleAfter('stake', all)).toEqual([today, wallet])
  })

  it("a trade refreshes the book, the balances and the home screen's price", async () => {
    expect(await staleAfter('trade', all)).toEqual([wallet, price, book])
  })

  it('a payment on chain refreshes everything', async () => {
    expect(await staleAfter('payment', all)).toEqual(all)
  })

  it('names only keys under a domain', () => {
    const roots = Object.values(domainKeys).map(([root]) => root)
    for (const [action, keys] of Object.entries(INVALIDATES))
      for (const key of keys) if (key.length) expect(roots, action).toContain(key[0])
  })
})
