// A live-channel client for tests (docs/architecture.md "Live updates"): connects, records every message, and waits
// for the ones a test names.
import type { AddressInfo } from 'node:net'
import {
  API_BASE,
  LIVE_PATH,
  type LiveClientMessage,
  type LiveServerMessage,
  type LiveTopic,
} from '@solpledge/contract'
import { type ClientOptions, WebSocket } from 'ws'
import type { App } from '../src/app.ts'

export type EventMessage<T extends LiveTopic = LiveTopic> = Extract<LiveServerMessage, { type: 'event'; topic: T }>

/** The ws:// URL of a listening app's channel. */
export function liveUrl(app: App) {
  const { port } = app.server.address() as AddressInfo
  return `ws://127.0.0.1:${port}${API_BASE}${LIVE_PATH}`
}

export class LiveTestClient {
  readonly messages: LiveServerMessage[] = []
  closed: { code: number; reason: string } | null = null
  private waiters: (() => void)[] = []

  private constructor(readonly socket: WebSocket) {
    socket.on('message', (data) => {
      this.messages.push(JSON.parse(data.toString()) as LiveServerMessage)
      this.wake()
    })
    socket.on('close', (code, reason) => {
      this.closed = { code, reason: reason.toString() }
      this.wake()
    })
    socket.on('error', () => {})
  }

  /** Connects and waits for the welcome. Rejects with the HTTP status when the upgrade is refused. */
  static async connect(
    url: string,
    headers: Record<string, string> = {},
    options: ClientOptions = {},
  ): Promise<LiveTestClient> {
    const socket = new WebSocket(url, { ...options, headers })
    const client = new LiveTestClient(socket)
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve())
      socket.once('unexpected-response', (_request, response) => {
        reject(Object.assign(new Error(`upgrade refused: ${response.statusCode}`), { status: response.statusCode }))
        socket.terminate()
      })
      socket.once('error', reject)
    })
    await client.next((m) => m.type === 'welcome')
    return client
  }

  private wake() {
    const waiters = this.waiters
    this.waiters = []
    for (const wake of waiters) wake()
  }

  send(message: LiveClientMessage | Record<string, unknown>) {
    this.socket.send(JSON.stringify(message))
  }

  /** The first message (from `from` on) that `match` accepts; rejects after `ms` or when the socket closed. */
  async next<M extends LiveServerMessage>(
    match: (message: LiveServerMessage) => message is M,
    ms?: number,
    from?: number,
  ): Promise<M>
  async next(match: (message: LiveServerMessage) => boolean, ms?: number, from?: number): Promise<LiveServerMessage>
  async next(match: (message: LiveServerMessage) => boolean, ms = 10_000, from = 0): Promise<LiveServerMessage> {
    const deadline = Date.now() + ms
    for (;;) {
      const found = this.messages.slice(from).find(match)
      if (found) return found
      if (this.closed) throw new Error(`closed (${this.closed.code}) before the message came`)
      const left = deadline - Date.now()
      if (left <= 0) throw new Error(`no such message within ${ms} ms; got ${JSON.stringify(this.messages.slice(-5))}`)
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left)
        this.waiters.push(() => {
          clearTimeout(timer)
          resolve()
        })
      })
    }
  }

  /** Subscribes and waits for the answer. */
  async subscribe(topic: LiveTopic, since?: number) {
    const from = this.messages.length
    this.send({ op: 'sub', topic, ...(since === undefined ? {} : { since }) })
    return this.next(
      (m): m is Extract<LiveServerMessage, { type: 'subscribed' }> => m.type === 'subscribed' && m.topic === topic,
      10_000,
      from,
    )
  }

  /** Authenticates and waits for the answer (authed, or the refusal). */
  async auth(message: Omit<Extract<LiveClientMessage, { op: 'auth' }>, 'op'>) {
    const from = this.messages.length
    this.send({ op: 'auth', ...message } as LiveClientMessage)
    return this.next((m) => m.type === 'authed' || m.type === 'error', 10_000, from)
  }

  /** The events of `topic` received so far. */
  events<T extends LiveTopic>(topic: T): EventMessage<T>[] {
    return this.messages.filter((m): m is EventMessage<T> => m.type === 'event' && m.topic === topic)
  }

  /** The next event of `topic` that `match` accepts. */
  event<T extends LiveTopic>(topic: T, match: (event: EventMessage<T>) => boolean = () => true, ms = 10_000) {
    return this.next(
      (m): m is EventMessage<T> => m.type === 'event' && m.topic === topic && match(m as EventMessage<T>),
      ms,
    )
  }

  /** Resolves once the socket is closed, with its code. */
  async whenClosed(ms = 10_000) {
    await this.next(() => false, ms).catch(() => {})
    if (!this.closed) throw new Error(`still open after ${ms} ms`)
    return this.closed
  }

  close() {
    this.socket.terminate()
  }
}
