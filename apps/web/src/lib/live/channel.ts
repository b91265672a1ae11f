import {
  LIVE_CLOSE,
  LIVE_HEARTBEAT_MS,
  type LiveClientMessage,
  type LiveEvent,
  type LiveServerMessage,
  type LiveTopic,
} from '@solpledge/contract/client'
import { createStore } from '../store.ts'

/**
 * The live channel's client (docs/architecture.md "Live updates"): one WebSocket per app, open while a screen needs a
 * topic. Each topic's events arrive numbered; a gap makes the client ask again from the last number it applied (the
 * server resends what it still has), and whenever the server says the client must take a snapshot, every handler of
 * the topic reads its data again through its REST call while the events keep being applied, and once the snapshot is
 * in, the events that came meanwhile are applied again over it (they carry whole values, so applying one twice is
 * harmless): the Binance local-book rule, on TanStack Query's cache.
 *
 * On phones: the server pings every 30 s and a connection silent for twice that is taken for dead; a tab hidden for a
 * minute closes its connection and reconnects (and resumes) when shown again or back online; every reconnection waits
 * a random 0.5 s up to a bound that doubles to 30 s.
 */

export interface TopicHandler<T extends LiveTopic = LiveTopic> {
  /** An event of the topic, in the topic's order. */
  onEvent(data: LiveEvent<T>): void
  /** Events may have been missed: read the topic's data again; resolves once it is in. */
  onSnapshot(): Promise<unknown>
}

/** 'live': connected; 'reconnecting': it broke and is being reopened; 'idle': not needed, or paused while hidden. */
export type LiveStatus = 'idle' | 'connecting' | 'live' | 'reconnecting'

interface HandlerState {
  /** Events applied while the handler's snapshot is read, to apply again over it. */
  replay: unknown[] | null
}

interface TopicState {
  handlers: Map<TopicHandler<LiveTopic>, HandlerState>
  /** The last number applied; null before the first `subscribed`. */
  seq: number | null
  /** Asked again after a gap: events wait for the answer. */
  resyncing: boolean
}

export interface LiveChannelOptions {
  /** The channel's ws(s):// URL. */
  url: () => string
  /** The `auth` message of the current identity; null: anonymous. */
  auth: () => Extract<LiveClientMessage, { op: 'auth' }> | null
  createSocket?: (url: string) => WebSocket
  random?: () => number
  /** A hidden page closes its connection after this long. */
  hiddenCloseMs?: number
  /** With no topic left, the connection closes after this long. */
  idleCloseMs?: number
  /** Where visibility and network changes are heard (the page); null in tests that drive them. */
  events?: { document: Document; window: Window } | null
  /**
   * No connection opens before this resolves (the app's: after its first screen, lib/after-first-screen.ts); topics
   * subscribed meanwhile are asked for, and their snapshots taken, once it has.
   */
  ready?: Promise<unknown>
}

/** How long the client waits before reconnecting: a random time from 0.5 s to min(30 s, 2^attempt s). */
export function reconnectDelay(attempt: number, random: () => number = Math.random) {
  const bound = Math.min(30_000, 1_000 * 2 ** attempt)
  return 500 + random() * (bound - 500)
}

const OPEN = 1

export class LiveChannel {
  private readonly statusStore = createStore<LiveStatus>('idle')
  private readonly reconnected = new Set<() => void>()
  private wasLive = false
  private readonly topics = new Map<LiveTopic, TopicState>()
  private socket: WebSocket | null = null
  private attempt = 0
  private heartbeatMs = LIVE_HEARTBEAT_MS
  private reconnectTimer: ReturnType<typeof setTimeout> | undefined
  private watchdog: ReturnType<typeof setTimeout> | undefined
  private hiddenTimer: ReturnType<typeof setTimeout> | undefined
  private idleTimer: ReturnType<typeof setTimeout> | undefined
  private paused = false
  /** Waiting for `ready`: no connection yet. */
  private waiting: boolean
  /** The server refused the identity: anonymous until it changes. */
  private refused = false
  private readonly options: Required<Omit<LiveChannelOptions, 'events' | 'ready'>> & Pick<LiveChannelOptions, 'events'>

  constructor(options: LiveChannelOptions) {
    this.options = {
      createSocket: (url) => new WebSocket(url),
      random: Math.random,
      hiddenCloseMs: 60_000,
      idleCloseMs: 10_000,
      ...options,
    }
    this.waiting = options.ready !== undefined
    options.ready?.then(() => {
      this.waiting = false
      this.ensureConnected()
    })
    const page =
      options.events === undefined ? (typeof document === 'undefined' ? null : { document, window }) : options.events
    if (page) {
      page.document.addEventListener('visibilitychange', () =>
        page.document.visibilityState === 'hidden' ? this.hidden() : this.visible(),
      )
      page.window.addEventListener('online', () => this.online())
    }
  }

  get status() {
    return this.statusStore.get()
  }
  readonly useStatus = () => this.statusStore.use()
  /**
   * Calls `listener` whenever the channel is back after a break (not at the first connection): what is read from
   * elsewhere than the channel (the chain) may have changed unheard meanwhile.
   */
  readonly onReconnected = (listener: () => void) => {
    this.reconnected.add(listener)
    return () => {
      this.reconnected.delete(listener)
    }
  }

  private setStatus(status: LiveStatus) {
    if (this.statusStore.get() !== status) this.statusStore.set(status)
  }

  /** Calls `handler` with the topic's events until the returned function is called. */
  subscribe<T extends LiveTopic>(topic: T, handler: TopicHandler<T>): () => void {
    let state = this.topics.get(topic)
    if (!state) {
      state = { handlers: new Map(), seq: null, resyncing: false }
      this.topics.set(topic, state)
      this.sendSub(topic, state)
    }
    const entry: HandlerState = { replay: null }
    state.handlers.set(handler as TopicHandler<LiveTopic>, entry)
    // Joining a topic already live: the handler's data is read now, and what arrives meanwhile applied over it. (A
    // topic still waiting for its `subscribed` takes its snapshot then.)
    if (state.seq !== null) this.snapshot(handler as TopicHandler<LiveTopic>, entry)
    clearTimeout(this.idleTimer)
    this.ensureConnected()
    return () => {
      const current = this.topics.get(topic)
      if (!current?.handlers.delete(handler as TopicHandler<LiveTopic>) || current.handlers.size > 0) return
      this.topics.delete(topic)
      this.send({ op: 'unsub', topic })
      if (this.topics.size === 0) {
        clearTimeout(this.idleTimer)
        this.idleTimer = setTimeout(() => this.topics.size === 0 && this.disconnect('idle'), this.options.idleCloseMs)
      }
    }
  }

  /** The identity changed (sign-in, sign-out): reconnect as the new one; its own topics start from a snapshot. */
  identityChanged() {
    this.refused = false
    for (const topic of ['user', 'console'] as const) {
      const state = this.topics.get(topic)
      if (state) state.seq = null
    }
    if (this.socket) {
      this.disconnect('idle')
      this.attempt = 0
      this.ensureConnected()
    }
  }

  private ensureConnected() {
    if (this.waiting || this.socket || this.paused || this.topics.size === 0 || this.reconnectTimer) return
    this.connect()
  }

  private connect() {
    this.setStatus(this.attempt === 0 ? 'connecting' : 'reconnecting')
    const socket = this.options.createSocket(this.options.url())
    this.socket = socket
    socket.onopen = () => {
      const auth = this.refused ? null : this.options.auth()
      if (auth) this.send(auth)
      for (const [topic, state] of this.topics) this.sendSub(topic, state)
      this.resetWatchdog()
    }
    socket.onmessage = (message) => {
      if (this.socket !== socket) return
      this.resetWatchdog()
      let parsed: LiveServerMessage
      try {
        parsed = JSON.parse(String(message.data)) as LiveServerMessage
      } catch {
        return
      }
      this.onMessage(parsed)
    }
    socket.onclose = (event) => {
      if (this.socket !== socket) return
      this.socket = null
      clearTimeout(this.watchdog)
      if (event.code === LIVE_CLOSE.sessionInvalid) {
        this.refused = true
        const state = this.topics.get('user')
        if (state) state.seq = null
      }
      this.scheduleReconnect()
    }
    socket.onerror = () => {}
  }

  private onMessage(message: LiveServerMessage) {
    switch (message.type) {
      case 'welcome':
        this.heartbeatMs = message.heartbeat_ms
        this.attempt = 0
        this.setStatus('live')
        this.resetWatchdog()
        if (this.wasLive) for (const listener of this.reconnected) listener()
        this.wasLive = true
        return
      case 'ping':
        this.send({ op: 'pong' })
        return
      case 'subscribed': {
        const state = this.topics.get(message.topic)
        if (!state) return
        state.seq = message.seq
        state.resyncing = false
        if (!message.resumed) for (const [handler, entry] of state.handlers) this.snapshot(handler, entry)
        return
      }
      case 'event': {
        const state = this.topics.get(message.topic)
        if (!state || state.seq === null || state.resyncing || message.seq <= state.seq) return
        if (message.seq !== state.seq + 1) {
          // A gap: ask again from the last number applied (resent while the server has them, else a snapshot).
          state.resyncing = true
          this.send({ op: 'sub', topic: message.topic, since: state.seq })
          return
        }
        state.seq = message.seq
        for (const [handler, entry] of state.handlers) {
          entry.replay?.push(message.data)
          handler.onEvent(message.data as never)
        }
        return
      }
      default:
        return
    }
  }

  private snapshot(handler: TopicHandler<LiveTopic>, entry: HandlerState) {
    const replay: unknown[] = []
    entry.replay = replay
    const done = () => {
      if (entry.replay !== replay) return
      entry.replay = null
      for (const data of replay) handler.onEvent(data as never)
    }
    handler.onSnapshot().then(done, done)
  }

  private sendSub(topic: LiveTopic, state: TopicState) {
    this.send({ op: 'sub', topic, ...(state.seq === null ? {} : { since: state.seq }) })
  }

  private send(message: LiveClientMessage) {
    if (this.socket?.readyState === OPEN) this.socket.send(JSON.stringify(message))
  }

  /** No message (not even a ping) for two heartbeats: the connection is dead without having said so. */
  private resetWatchdog() {
    clearTimeout(this.watchdog)
    this.watchdog = setTimeout(
      () => {
        const socket = this.socket
        if (!socket) return
        this.socket = null
        socket.close()
        this.scheduleReconnect()
      },
      this.heartbeatMs * 2 + 5_000,
    )
  }

  private scheduleReconnect() {
    if (this.paused || this.topics.size === 0) {
      this.setStatus('idle')
      return
    }
    this.setStatus('reconnecting')
    clearTimeout(this.reconnectTimer)
    const delay = reconnectDelay(this.attempt++, this.options.random)
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = undefined
      this.ensureConnected()
    }, delay)
  }

  private disconnect(status: LiveStatus) {
    clearTimeout(this.reconnectTimer)
    this.reconnectTimer = undefined
    clearTimeout(this.watchdog)
    const socket = this.socket
    this.socket = null
    socket?.close(1000)
    this.setStatus(status)
  }

  /** Reconnect at once (the page is shown again, the network is back). */
  private reconnectNow() {
    this.paused = false
    if (this.socket) return
    clearTimeout(this.reconnectTimer)
    this.reconnectTimer = undefined
    this.attempt = 0
    this.ensureConnected()
  }

  hidden() {
    clearTimeout(this.hiddenTimer)
    this.hiddenTimer = setTimeout(() => {
      this.paused = true
      this.disconnect('idle')
    }, this.options.hiddenCloseMs)
  }

  visible() {
    clearTimeout(this.hiddenTimer)
    this.reconnectNow()
  }

  online() {
    this.reconnectNow()
  }
}
