import type { LiveServerMessage } from '@solpledge/contract/client'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { LiveChannel, reconnectDelay, type TopicHandler } from './channel.ts'

class Socket {
  readyState = 0
  readonly sent: Record<string, unknown>[] = []
  closedWith: number | undefined
  onopen: (() => void) | null = null
  onmessage: ((message: { data: string }) => void) | null = null
  onclose: ((event: { code: number }) => void) | null = null
  onerror: (() => void) | null = null
  send(text: string) {
    this.sent.push(JSON.parse(text))
  }
  close(code = 1005) {
    this.closedWith = code
    this.readyState = 3
  }
  /** The server accepts: open, then its welcome. */
  open() {
    this.readyState = 1
    this.onopen?.()
    this.receive({ type: 'welcome', heartbeat_ms: 30_000 })
  }
  receive(message: LiveServerMessage) {
    this.onmessage?.({ data: JSON.stringify(message) })
  }
  /** The server (or the network) closes it. */
  drop(code = 1006) {
    this.readyState = 3
    this.onclose?.({ code })
  }
}

const event = (topic: 'market' | 'user', seq: number, data: object) =>
  ({ type: 'event', topic, seq, data }) as LiveServerMessage

describe('the live channel client', () => {
  let sockets: Socket[]
  let auth: { op: 'auth'; token: string; address: string } | null
  const make = (ready?: Promise<unknown>) =>
    new LiveChannel({
      ready,
      url: () => 'ws://test/api/live',
      auth: () => auth,
      createSocket: () => {
        const socket = new Socket()
        sockets.push(socket)
        return socket as unknown as WebSocket
      },
      random: () => 0.5,
      events: null,
    })
  const last = () => sockets.at(-1) as Socket
  /** A handler that records what it is given; its snapshot resolves when the test says. */
  const recorder = () => {
    const seen: unknown[] = []
    let finish: () => void = () => {}
    const snapshots: number[] = []
    const handler: TopicHandler<'market'> = {
      onEvent: (data) => seen.push(data),
      onSnapshot: () => {
        snapshots.push(seen.length)
        return new Promise<void>((resolve) => {
          finish = resolve
        })
      },
    }
    return { handler, seen, snapshots, finish: () => finish() }
  }

  beforeEach(() => {
    vi.useFakeTimers()
    sockets = []
    auth = { op: 'auth', token: 't', address: 'A' }
  })
  afterEach(() => vi.useRealTimers())

  it('connects when a topic is needed, authenticates before subscribing, and snapshots on a fresh subscription', async () => {
    const channel = make()
    expect(sockets).toHaveLength(0)
    const market = recorder()
    channel.subscribe('market', market.handler)
    last().open()
    expect(last().sent).toEqual([
      { op: 'auth', token: 't', address: 'A' },
      { op: 'sub', topic: 'market' },
    ])
    expect(channel.status).toBe('live')
    last().receive({ type: 'subscribed', topic: 'market', seq: 7, resumed: false })
    expect(market.snapshots).toEqual([0])
    // Events during the snapshot are applied at once, and again over the snapshot once it is in.
    last().receive(event('market', 8, { n: 8 }))
    expect(market.seen).toEqual([{ n: 8 }])
    market.finish()
    await vi.runAllTimersAsync()
    expect(market.seen).toEqual([{ n: 8 }, { n: 8 }])
    last().receive(event('market', 9, { n: 9 }))
    expect(market.seen.at(-1)).toEqual({ n: 9 })
  })

  it('opens no connection before it is ready (the first screen first), then takes the topics asked for meanwhile', async () => {
    let ready = () => {}
    const channel = make(new Promise<void>((resolve) => (ready = resolve)))
    const market = recorder()
    channel.subscribe('market', market.handler)
    channel.visible()
    channel.online()
    await vi.runAllTimersAsync()
    expect(sockets).toHaveLength(0)
    expect(channel.status).toBe('idle')
    ready()
    await vi.runAllTimersAsync()
    expect(sockets).toHaveLength(1)
    last().open()
    expect(last().sent).toContainEqual({ op: 'sub', topic: 'market' })
    last().receive({ type: 'subscribed', topic: 'market', seq: 1, resumed: false })
    expect(market.snapshots).toEqual([0])
  })

  it('asks again from the last number after a gap, ignoring what comes until the answer', () => {
    const channel = make()
    const market = recorder()
    channel.subscribe('market', market.handler)
    last().open()
    last().receive({ type: 'subscribed', topic: 'market', seq: 3, resumed: true })
    last().receive(event('market', 4, { n: 4 }))
    last().receive(event('market', 6, { n: 6 }))
    last().receive(event('market', 7, { n: 7 }))
    expect(last().sent.at(-1)).toEqual({ op: 'sub', topic: 'market', since: 4 })
    expect(market.seen).toEqual([{ n: 4 }])
    // The server resends from 5 on.
    last().receive({ type: 'subscribed', topic: 'market', seq: 4, resumed: true })
    for (const n of [5, 6, 7]) last().receive(event('market', n, { n }))
    expect(market.seen).toEqual([4, 5, 6, 7].map((n) => ({ n })))
    // A repeat of what was applied is ignored.
    last().receive(event('market', 7, { n: 7 }))
    expect(market.seen).toHaveLength(4)
  })

  it('reconnects after a random wait and resumes each topic from its last number', () => {
    const channel = make()
    channel.subscribe('market', recorder().handler)
    last().open()
    last().receive({ type: 'subscribed', topic: 'market', seq: 10, resumed: true })
    last().receive(event('market', 11, {}))
    last().drop()
    expect(channel.status).toBe('reconnecting')
    expect(sockets).toHaveLength(1)
    vi.advanceTimersByTime(reconnectDelay(0, () => 0.5) - 1)
    expect(sockets).toHaveLength(1)
    vi.advanceTimersByTime(1)
    expect(sockets).toHaveLength(2)
    last().open()
    expect(last().sent).toContainEqual({ op: 'sub', topic: 'market', since: 11 })
  })

  it('takes a silent connection for dead after two heartbeats', () => {
    const channel = make()
    channel.subscribe('market', recorder().handler)
    last().open()
    vi.advanceTimersByTime(30_000)
    last().receive({ type: 'ping' })
    expect(last().sent.at(-1)).toEqual({ op: 'pong' })
    vi.advanceTimersByTime(64_999)
    expect(last().closedWith).toBeUndefined()
    vi.advanceTimersByTime(1)
    expect(last().closedWith).toBeDefined()
    expect(channel.status).toBe('reconnecting')
  })

  it('closes while the page is hidden for a while and reconnects at once when it is shown or back online', () => {
    const channel = make()
    channel.subscribe('market', recorder().handler)
    last().open()
    channel.hidden()
    vi.advanceTimersByTime(59_999)
    expect(last().closedWith).toBeUndefined()
    vi.advanceTimersByTime(1)
    expect(last().closedWith).toBe(1000)
    expect(channel.status).toBe('idle')
    vi.advanceTimersByTime(600_000)
    expect(sockets).toHaveLength(1)
    channel.visible()
    expect(sockets).toHaveLength(2)
    // Offline: the socket drops; back online, no waiting for the backoff.
    last().open()
    last().drop()
    channel.online()
    expect(sockets).toHaveLength(3)
  })

  it('reconnects as the new identity when the session changes; its own topic starts from a snapshot', () => {
    const channel = make()
    const user = recorder()
    channel.subscribe('user', user.handler as unknown as TopicHandler<'user'>)
    last().open()
    last().receive({ type: 'subscribed', topic: 'user', seq: 5, resumed: false })
    auth = { op: 'auth', token: 'u', address: 'B' }
    channel.identityChanged()
    expect(sockets[0]?.closedWith).toBe(1000)
    last().open()
    expect(last().sent).toEqual([
      { op: 'auth', token: 'u', address: 'B' },
      { op: 'sub', topic: 'user' },
    ])
  })

  it('stays anonymous after its session was refused, until the identity changes', () => {
    const channel = make()
    channel.subscribe('market', recorder().handler)
    last().open()
    last().drop(4401)
    vi.advanceTimersByTime(1_000)
    last().open()
    expect(last().sent[0]).toEqual({ op: 'sub', topic: 'market' })
    channel.identityChanged()
    vi.advanceTimersByTime(1_000)
    last().drop()
    vi.advanceTimersByTime(30_000)
    last().open()
    expect(last().sent[0]).toMatchObject({ op: 'auth' })
  })

  it('waits 0.5 s to 30 s before reconnecting, the bound doubling with each attempt', () => {
    for (const attempt of [0, 1, 3, 5, 10, 50]) {
      const low = reconnectDelay(attempt, () => 0)
      const high = reconnectDelay(attempt, () => 1)
      expect(low).toBe(500)
      expect(high).toBe(Math.min(30_000, 1000 * 2 ** attempt))
    }
  })
})
