// @vitest-environment happy-dom
import type { LiveEvent, LiveTopic } from '@solpledge/contract/client'
import { QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query'
import { act, cleanup, render, screen, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { LiveChannel, TopicHandler } from './channel.ts'
import { useChannelRefresh } from './use-live.ts'

/** A channel whose subscribers the test drives: `emit` delivers an event of the topic, `snapshot` a resync. */
function fakeChannel() {
  const handlers = new Map<LiveTopic, Set<TopicHandler<LiveTopic>>>()
  const channel = {
    subscribe: (topic: LiveTopic, handler: TopicHandler<LiveTopic>) => {
      const set = handlers.get(topic) ?? new Set()
      set.add(handler)
      handlers.set(topic, set)
      return () => set.delete(handler)
    },
  } as unknown as LiveChannel
  return {
    channel: () => channel,
    emit: (topic: LiveTopic, event: LiveEvent<LiveTopic>) => {
      for (const handler of handlers.get(topic) ?? []) handler.onEvent(event as never)
    },
  }
}

/** Lists under a status filter, as the console's review tabs and the app's history tabs keep them. */
const listKey = (status: string) => ['withdrawals', 'list', status] as const
const reads = new Map<string, number>()
const read = (status: string) => {
  reads.set(status, (reads.get(status) ?? 0) + 1)
  return Promise.resolve(`${status} ${reads.get(status)}`)
}

function List({ status }: { status: string }) {
  const { data } = useQuery({ queryKey: listKey(status), queryFn: () => read(status), staleTime: 60_000 })
  return <p data-testid={status}>{data ?? 'loading'}</p>
}

function Screen({
  status,
  refreshKey,
  live,
}: {
  status: string
  refreshKey: readonly string[]
  live: () => LiveChannel
}) {
  useChannelRefresh(live, 'console', refreshKey, { match: (event) => event.kind === 'withdrawal' })
  return <List status={status} />
}

afterEach(() => {
  cleanup()
  reads.clear()
})

/** Both tabs read once, the second shown last; then the first is shown again, and an event arrives. */
async function setUp(refreshKey: readonly string[]) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  const live = fakeChannel()
  const view = (status: string) => (
    <QueryClientProvider client={client}>
      <Screen status={status} refreshKey={refreshKey} live={live.channel} />
    </QueryClientProvider>
  )
  const { rerender } = render(view('done'))
  await waitFor(() => expect(screen.getByTestId('done').textContent).toBe('done 1'))
  rerender(view('pending'))
  await waitFor(() => expect(screen.getByTestId('pending').textContent).toBe('pending 1'))
  return {
    live,
    show: (status: string) => rerender(view(status)),
    /** Whether an event made the (unshown) list stale before its stale time. */
    invalidated: (status: string) => client.getQueryState(listKey(status))?.isInvalidated,
  }
}

const withdrawal: LiveEvent<'console'> = { kind: 'withdrawal', id: '1', status: 'pending' }
const change: LiveEvent<'console'> = { kind: 'change' }

describe('useChannelRefresh', () => {
  it('with the key of every filter, reads the list on screen again and the others when they are shown', async () => {
    const { live, show, invalidated } = await setUp(['withdrawals', 'list'])
    act(() => live.emit('console', withdrawal))
    await waitFor(() => expect(screen.getByTestId('pending').textContent).toBe('pending 2'))
    // The other tab was read less than its stale time ago, but the event made it stale: shown, it reads again.
    expect([reads.get('done'), invalidated('done')]).toEqual([1, true])
    show('done')
    await waitFor(() => expect(screen.getByTestId('done').textContent).toBe('done 2'))
  })

  it('with only the shown filter’s key, another tab keeps what it had (why every filter’s key is passed)', async () => {
    const { live, show, invalidated } = await setUp(listKey('pending'))
    act(() => live.emit('console', withdrawal))
    await waitFor(() => expect(screen.getByTestId('pending').textContent).toBe('pending 2'))
    expect(invalidated('done')).toBe(false)
    show('done')
    expect(screen.getByTestId('done').textContent).toBe('done 1')
    expect(reads.get('done')).toBe(1)
  })

  it('reads nothing for an event its match refuses', async () => {
    const { live, invalidated } = await setUp(['withdrawals', 'list'])
    vi.useFakeTimers()
    try {
      act(() => live.emit('console', change))
      // Past the moment a matched event's read would start (refetchSoon): nothing was marked stale.
      act(() => vi.advanceTimersByTime(1_000))
      expect([invalidated('pending'), invalidated('done')]).toEqual([false, false])
      // The same with a matching event does mark the tab not shown: the check above can tell.
      act(() => live.emit('console', withdrawal))
      act(() => vi.advanceTimersByTime(1_000))
      expect(invalidated('done')).toBe(true)
    } finally {
      vi.useRealTimers()
    }
  })
})
