// @vitest-environment happy-dom
import { type AssetBalance, api, type LiveEvent } from '@solpledge/contract/client'
import { type QueryClient, useQueryClient } from '@tanstack/react-query'
import { act, screen, waitFor } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { deferred, fakeApi, renderSignedIn } from '@/test/harness.tsx'
import type { TopicHandler } from './live/channel.ts'
import { userWalletKey, useUserWallet } from './user-wallet.ts'

/** The user topic's handler the hook registered: the test delivers events through it, as the channel would. */
const topics = vi.hoisted(() => ({ user: null as { onEvent: (event: unknown) => void } | null }))
vi.mock('./live/use-live.ts', async (original) => ({
  ...(await original<typeof import('./live/use-live.ts')>()),
  useLiveTopic: (topic: string, handler: TopicHandler<'user'>) => {
    if (topic === 'user') topics.user = handler as never
  },
  useLiveRefresh: () => undefined,
}))

const usdt = (available: string): AssetBalance[] => [
  {
    coin: 'USDT',
    symbol: 'USDT',
    decimals: 6,
    mint: null,
    balance: available,
    available,
    locked: '0',
    is_user_recharge: 1,
    is_withdraw: 1,
    min_atm_money: '0',
    fee: '0',
    usdt_value: available,
  } as AssetBalance,
]

let client: QueryClient | null = null
function Balance() {
  client = useQueryClient()
  const wallet = useUserWallet()
  return <p data-testid="available">{wallet.data?.[0]?.available ?? 'loading'}</p>
}

describe('useUserWallet', () => {
  it('keeps a balance event over a read that was already in flight when it arrived', async () => {
    // The server's answers in order: 0 at first; a read held open that left before the credit (0); then 100.
    const held = deferred<{ data: { list: AssetBalance[] } }>()
    const answers = [
      () => ({ data: { list: usdt('0') } }),
      () => held.promise,
      () => ({ data: { list: usdt('100000000') } }),
    ]
    let reads = 0
    fakeApi({ [api.userWallet.path]: () => (answers[Math.min(reads++, answers.length - 1)] as () => never)() })
    await renderSignedIn(<Balance />)
    await waitFor(() => expect(screen.getByTestId('available').textContent).toBe('0'))
    // An earlier invalidation starts a read; the top-up's balance event comes while it is open.
    act(() => {
      void client?.invalidateQueries({ queryKey: userWalletKey('DemoWa11etAddress1111111111111111111111111') })
    })
    await waitFor(() => expect(reads).toBe(2))
    const event: LiveEvent<'user'> = { kind: 'balance', coin: 'USDT', account: 'available', balance: '100000000' }
    expect(topics.user).not.toBeNull()
    act(() => topics.user?.onEvent(event))
    await waitFor(() => expect(screen.getByTestId('available').textContent).toBe('100000000'))
    // The read that left before the credit answers now, with the older balance: the balance stays the event's.
    await act(async () => {
      held.resolve({ data: { list: usdt('0') } })
      await held.promise
      await new Promise((resolve) => setTimeout(resolve, 50))
    })
    expect(screen.getByTestId('available').textContent).toBe('100000000')
    // The wallet was read again after the event (the third answer), not left to the older read.
    expect(reads).toBe(3)
  })
})
