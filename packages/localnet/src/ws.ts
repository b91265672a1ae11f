import type { IncomingMessage, Server } from 'node:http'
import type { Duplex } from 'node:stream'
import { type WebSocket, WebSocketServer } from 'ws'
import {
  type AccountFilter,
  type AccountView,
  accountView,
  encodeAccount,
  encodeClosedAccount,
  matchesFilters,
  parseFilters,
} from './accounts.ts'
import type { Chain, TransactionRecord } from './chain.ts'
import { stringifyJson } from './codec.ts'
import { INVALID_REQUEST, invalidParams, METHOD_NOT_FOUND, PARSE_ERROR, RpcError } from './errors.ts'
import { checkContext, config, positional, requireAddress, requireSignature } from './params.ts'

/**
 * Delay before notifying a signature that was already processed when subscribed: lets clients register the id and
 * start reading. @solana/kit drops a notification that arrives before its iterator has started, which it does only
 * once the answer with the id has been handled; when both arrived in one read (10 ms apart, on a loaded machine) the
 * notification was lost.
 */
const ALREADY_PROCESSED_NOTIFY_DELAY_MS = 100
/** How long close() waits for clients to answer the close handshake before dropping them. */
const CLOSE_GRACE_MS = 250

type Subscription =
  | { kind: 'account'; id: number; socket: WebSocket; address: string; view: AccountView }
  | { kind: 'program'; id: number; socket: WebSocket; program: string; view: AccountView; filters: AccountFilter[] }
  | { kind: 'signature'; id: number; socket: WebSocket; signature: string; received: boolean }
  | { kind: 'slot'; id: number; socket: WebSocket }
  | { kind: 'root'; id: number; socket: WebSocket }
  | { kind: 'logs'; id: number; socket: WebSocket; mentions: string | null }

type Kind = Subscription['kind']

const UNSUBSCRIBE: Record<string, Kind> = {
  accountUnsubscribe: 'account',
  programUnsubscribe: 'program',
  signatureUnsubscribe: 'signature',
  slotUnsubscribe: 'slot',
  rootUnsubscribe: 'root',
  logsUnsubscribe: 'logs',
}

const NOTIFICATION_METHOD: Record<Kind, string> = {
  account: 'accountNotification',
  program: 'programNotification',
  signature: 'signatureNotification',
  slot: 'slotNotification',
  root: 'rootNotification',
  logs: 'logsNotification',
}

interface JsonRpcRequest {
  jsonrpc?: unknown
  id?: unknown
  method?: unknown
  params?: unknown
}

/**
 * JSON-RPC over WebSocket, like a validator's pubsub endpoint: account, program, signature, slot, root and logs
 * subscriptions with the notification shapes web3.js v1 and @solana/kit expect.
 */
export class SubscriptionServer {
  private readonly wss = new WebSocketServer({ noServer: true, maxPayload: 1024 * 1024 })
  private readonly subscriptions = new Map<number, Subscription>()
  private readonly bySocket = new Map<WebSocket, Set<number>>()
  private readonly timers = new Set<NodeJS.Timeout>()
  private nextId = 0
  private readonly detach: (() => void)[] = []

  constructor(private readonly chain: Chain) {
    this.wss.on('connection', (socket) => this.onConnection(socket))
    this.detach.push(
      chain.onSlot.on((slot) => this.onSlot(slot)),
      chain.onTransaction.on((record) => this.onTransaction(record)),
      chain.onAccountsChanged.on(({ slot, addresses }) => this.onAccountsChanged(slot, addresses)),
    )
  }

  /** Serves WebSocket upgrades of `server` (any path). */
  attach(server: Server): void {
    server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
      this.wss.handleUpgrade(request, socket, head, (ws) => this.wss.emit('connection', ws, request))
    })
  }

  get subscriptionCount(): number {
    return this.subscriptions.size
  }

  /** Closes every socket with a normal closure (so clients without subscriptions do not retry) and stops. */
  async close(): Promise<void> {
    for (const off of this.detach) off()
    for (const timer of this.timers) clearTimeout(timer)
    this.subscriptions.clear()
    const sockets = [...this.wss.clients]
    await Promise.all(
      sockets.map(
        (socket) =>
          new Promise<void>((resolve) => {
            const timer = setTimeout(() => {
              socket.terminate()
              resolve()
            }, CLOSE_GRACE_MS)
            socket.once('close', () => {
              clearTimeout(timer)
              resolve()
            })
            socket.close(1000, 'localnet closed')
          }),
      ),
    )
    this.wss.close()
    this.bySocket.clear()
  }

  private onConnection(socket: WebSocket): void {
    this.bySocket.set(socket, new Set())
    socket.on('message', (data) => this.onMessage(socket, data.toString()))
    socket.on('close', () => {
      for (const id of this.bySocket.get(socket) ?? []) this.subscriptions.delete(id)
      this.bySocket.delete(socket)
    })
    socket.on('error', () => socket.terminate())
  }

  private onMessage(socket: WebSocket, text: string): void {
    let body: unknown
    try {
      body = JSON.parse(text)
    } catch {
      this.send(socket, { jsonrpc: '2.0', error: { code: PARSE_ERROR, message: 'Parse error' }, id: null })
      return
    }
    if (Array.isArray(body)) {
      const responses = body.map((request) => this.handle(socket, request)).filter((r) => r !== undefined)
      if (responses.length > 0) this.send(socket, responses)
      return
    }
    const response = this.handle(socket, body)
    if (response !== undefined) this.send(socket, response)
  }

  private handle(socket: WebSocket, request: unknown): object | undefined {
    if (!request || typeof request !== 'object') {
      return { jsonrpc: '2.0', error: { code: INVALID_REQUEST, message: 'Invalid request' }, id: null }
    }
    const { id, method, params } = request as JsonRpcRequest
    // Requests without an id are notifications (e.g. the clients' "ping"): no response.
    if (id === undefined) return undefined
    const rpcId = typeof id === 'string' || typeof id === 'number' ? id : null
    try {
      if (typeof method !== 'string') throw new RpcError(INVALID_REQUEST, 'Invalid request')
      return { jsonrpc: '2.0', result: this.call(socket, method, positional(params)), id: rpcId }
    } catch (error) {
      const e = error instanceof RpcError ? error : new RpcError(-32603, 'Internal error')
      const err: Record<string, unknown> = { code: e.code, message: e.message }
      if (e.data !== undefined) err.data = e.data
      return { jsonrpc: '2.0', error: err, id: rpcId }
    }
  }

  private call(socket: WebSocket, method: string, params: unknown[]): unknown {
    const unsubscribeKind = UNSUBSCRIBE[method]
    if (unsubscribeKind) {
      const id = params[0]
      const sub = typeof id === 'number' ? this.subscriptions.get(id) : undefined
      if (!sub || sub.kind !== unsubscribeKind || sub.socket !== socket) {
        throw invalidParams('Invalid subscription id.')
      }
      this.remove(sub)
      return true
    }
    const id = this.nextId++
    let sub: Subscription
    switch (method) {
      case 'accountSubscribe': {
        const address = requireAddress(params[0])
        const cfg = config(params[1])
        checkContext(cfg, this.chain.slot)
        sub = { kind: 'account', id, socket, address, view: { ...accountView(cfg, 'binary'), unlimitedBase58: true } }
        break
      }
      case 'programSubscribe': {
        const program = requireAddress(params[0])
        const cfg = config(params[1])
        checkContext(cfg, this.chain.slot)
        sub = {
          kind: 'program',
          id,
          socket,
          program,
          view: { ...accountView(cfg, 'binary'), unlimitedBase58: true },
          filters: parseFilters(cfg.filters),
        }
        break
      }
      case 'signatureSubscribe': {
        const signature = requireSignature(params[0])
        const cfg = config(params[1])
        checkContext(cfg, this.chain.slot)
        sub = { kind: 'signature', id, socket, signature, received: cfg.enableReceivedNotification === true }
        const record = this.chain.getTransaction(signature)
        if (record) {
          const done = sub
          const timer = setTimeout(() => {
            this.timers.delete(timer)
            if (this.subscriptions.get(done.id) === done) this.notifySignature(done, record)
          }, ALREADY_PROCESSED_NOTIFY_DELAY_MS)
          this.timers.add(timer)
        }
        break
      }
      case 'slotSubscribe':
        sub = { kind: 'slot', id, socket }
        break
      case 'rootSubscribe':
        sub = { kind: 'root', id, socket }
        break
      case 'logsSubscribe': {
        const filter = params[0]
        checkContext(config(params[1]), this.chain.slot)
        let mentions: string | null = null
        if (filter !== 'all' && filter !== 'allWithVotes') {
          const list = config(filter).mentions
          if (!Array.isArray(list) || list.length !== 1) {
            throw invalidParams('Invalid Request: Only 1 address supported')
          }
          mentions = requireAddress(list[0])
        }
        sub = { kind: 'logs', id, socket, mentions }
        break
      }
      default:
        throw new RpcError(METHOD_NOT_FOUND, 'Method not found')
    }
    this.subscriptions.set(id, sub)
    this.bySocket.get(socket)?.add(id)
    return id
  }

  private remove(sub: Subscription): void {
    this.subscriptions.delete(sub.id)
    this.bySocket.get(sub.socket)?.delete(sub.id)
  }

  private send(socket: WebSocket, message: unknown): void {
    if (socket.readyState === socket.OPEN) socket.send(stringifyJson(message))
  }

  private notify(sub: Subscription, result: unknown): void {
    this.send(sub.socket, {
      jsonrpc: '2.0',
      method: NOTIFICATION_METHOD[sub.kind],
      params: { result, subscription: sub.id },
    })
  }

  private notifySignature(sub: Extract<Subscription, { kind: 'signature' }>, record: TransactionRecord): void {
    this.notify(sub, { context: { slot: record.slot }, value: { err: record.err } })
    // Signature subscriptions end with their first (final) notification, as on a validator.
    this.remove(sub)
  }

  private onSlot(slot: number): void {
    for (const sub of this.subscriptions.values()) {
      if (sub.kind === 'slot') this.notify(sub, { parent: slot - 1, root: slot, slot })
      else if (sub.kind === 'root') this.notify(sub, slot)
    }
  }

  private onTransaction(record: TransactionRecord): void {
    for (const sub of [...this.subscriptions.values()]) {
      if (sub.kind === 'signature' && sub.signature === record.signature) {
        if (sub.received) this.notify(sub, { context: { slot: record.slot }, value: 'receivedSignature' })
        this.notifySignature(sub, record)
      } else if (sub.kind === 'logs' && (sub.mentions === null || record.accountKeys.includes(sub.mentions))) {
        this.notify(sub, {
          context: { slot: record.slot },
          value: { err: record.err, logs: record.logMessages, signature: record.signature },
        })
      }
    }
  }

  private onAccountsChanged(slot: number, addresses: string[]): void {
    if (this.subscriptions.size === 0) return
    const changed = new Set(addresses)
    const accounts = new Map(addresses.map((a) => [a, this.chain.getAccount(a)]))
    for (const sub of this.subscriptions.values()) {
      try {
        if (sub.kind === 'account' && changed.has(sub.address)) {
          const account = accounts.get(sub.address)
          const value = account?.exists ? encodeAccount(this.chain, account, sub.view) : encodeClosedAccount(sub.view)
          this.notify(sub, { context: { slot }, value })
        } else if (sub.kind === 'program') {
          for (const account of accounts.values()) {
            if (!account.exists || account.programAddress !== sub.program) continue
            if (!matchesFilters(account.data, sub.filters)) continue
            this.notify(sub, {
              context: { slot },
              value: { account: encodeAccount(this.chain, account, sub.view), pubkey: account.address },
            })
          }
        }
      } catch (error) {
        // e.g. base58 requested for a large account: real validators drop such notifications too.
        if (!(error instanceof RpcError)) throw error
      }
    }
  }
}
