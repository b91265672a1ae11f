// The live channel's WebSocket endpoint (docs/architecture.md "Live updates"): GET /api/live with Upgrade. A connection
// may subscribe to the public topics at once; `auth` with a session adds the user's own topic, with an admin session
// the console's. Every connection is pinged; one that does not answer, reads too slowly, or whose session ends is
// closed; connections are capped per client address (before the upgrade) and per session.
import websocket from '@fastify/websocket'
import {
  API_BASE,
  Code,
  envelope,
  LIVE_CLOSE,
  LIVE_PATH,
  LiveClientMessage,
  LiveServerMessage,
  type LiveTopic,
  PUBLIC_TOPICS,
} from '@solpledge/contract'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { Type } from 'typebox'
import { Compile } from 'typebox/compile'
import type { WebSocket } from 'ws'
import type { LiveSettings } from '../../config.ts'
import { retryTransient } from '../../db/transient.ts'
import { AppError } from '../../lib/app-error.ts'
import { sendEnvelope } from '../../plugins/envelope.ts'
import { adminOf } from '../admin/index.ts'
import { sessionUser } from '../auth/index.ts'
import { LiveHub, type Subscriber } from './hub.ts'
import { liveMetrics } from './metrics.ts'

declare module 'fastify' {
  interface FastifyInstance {
    /** The live channel's hub in this process (modules/live). */
    live: LiveHub
  }
}

/** A signed-in user's session is checked again this often (a revoked one is closed within it); its expiry at once. */
const SESSION_RECHECK_MS = 5 * 60_000
/** Largest client message: they are a few dozen bytes. */
const MAX_CLIENT_MESSAGE = 4096

const checkClientMessage = Compile(LiveClientMessage)
const isPublic = (topic: LiveTopic) => (PUBLIC_TOPICS as readonly string[]).includes(topic)

type Identity =
  | { as: 'anonymous' }
  | { as: 'user'; userId: string; sessionId: string; token: string; address: string; checkedAt: number }
  | { as: 'admin'; sessionId: string; token: string }

class Connection implements Subscriber {
  identity: Identity = { as: 'anonymous' }
  /** Outbox topics subscribed to. */
  readonly topics = new Set<string>()
  alive = true
  closed = false
  /** Client messages are handled one after the other (an `auth` before the `sub` it allows). */
  queue: Promise<void> = Promise.resolve()

  constructor(
    readonly socket: WebSocket,
    readonly ip: string,
    private readonly channel: LiveChannel,
  ) {}

  send(text: string) {
    if (this.closed) return
    // A client that does not read: cut it rather than buffer without bound; it reconnects and takes a snapshot.
    if (this.socket.bufferedAmount > this.channel.settings.maxBufferBytes) {
      this.channel.metrics.closed.inc({ reason: 'too_slow' })
      this.socket.terminate()
      this.channel.drop(this)
      return
    }
    this.socket.send(text)
  }

  reply(message: LiveServerMessage) {
    this.send(JSON.stringify(message))
  }

  close(code: number, reason: string) {
    this.channel.metrics.closed.inc({ reason })
    this.socket.close(code, reason)
    this.channel.drop(this)
  }
}

/** The connections of this process and their limits. */
class LiveChannel {
  readonly metrics
  readonly hub: LiveHub
  private readonly connections = new Set<Connection>()
  private readonly perIp = new Map<string, number>()
  private readonly perSession = new Map<string, number>()
  private heartbeat: NodeJS.Timeout | undefined

  constructor(
    private readonly app: FastifyInstance,
    readonly settings: LiveSettings,
  ) {
    this.metrics = liveMetrics(app.metrics.registry)
    this.hub = new LiveHub(app.db, this.metrics, app.log)
  }

  start() {
    this.heartbeat = setInterval(() => this.beat(), this.settings.heartbeatMs)
    this.heartbeat.unref()
    return this.hub.start()
  }

  async stop() {
    clearInterval(this.heartbeat)
    for (const connection of this.connections) connection.close(LIVE_CLOSE.goingAway, 'going_away')
    await this.hub.stop()
  }

  /** Whether another connection from `ip` is allowed. */
  admits(ip: string) {
    return (this.perIp.get(ip) ?? 0) < this.settings.maxPerIp
  }

  open(socket: WebSocket, request: FastifyRequest) {
    const connection = new Connection(socket, request.ip, this)
    this.connections.add(connection)
    count(this.perIp, connection.ip, 1)
    this.metrics.connections.inc({ as: 'anonymous' })
    socket.on('message', (data, isBinary) => {
      connection.alive = true
      connection.queue = connection.queue.then(() =>
        this.onMessage(connection, isBinary ? null : data.toString()).catch((error) => {
          this.app.log.warn({ err: error }, 'live: a message could not be handled')
          connection.close(LIVE_CLOSE.goingAway, 'error')
        }),
      )
    })
    socket.on('close', () => this.drop(connection))
    socket.on('error', () => socket.terminate())
    connection.reply({ type: 'welcome', heartbeat_ms: this.settings.heartbeatMs })
  }

  /** Forgets a connection (closed by either side): its subscriptions and its place in the counts. */
  drop(connection: Connection) {
    if (connection.closed) return
    connection.closed = true
    this.connections.delete(connection)
    for (const topic of connection.topics) this.hub.unsubscribe(connection, topic)
    count(this.perIp, connection.ip, -1)
    if (connection.identity.as !== 'anonymous') count(this.perSession, connection.identity.sessionId, -1)
    this.metrics.connections.dec({ as: connection.identity.as })
  }

  private async onMessage(connection: Connection, text: string | null) {
    if (connection.closed) return
    let message: unknown
    try {
      message = text !== null && text.length <= MAX_CLIENT_MESSAGE ? JSON.parse(text) : undefined
    } catch {
      message = undefined
    }
    if (!checkClientMessage.Check(message)) return connection.close(LIVE_CLOSE.protocol, 'protocol')
    switch (message.op) {
      case 'pong':
        return
      case 'auth':
        return this.authenticate(connection, message)
      case 'sub': {
        const topic = this.outboxTopic(connection, message.topic)
        if (topic === null) return connection.reply({ type: 'error', error: 'forbidden', topic: message.topic })
        connection.topics.add(topic)
        return this.hub.subscribe(connection, topic, message.since)
      }
      case 'unsub': {
        for (const topic of connection.topics)
          if (topic === message.topic || (message.topic === 'user' && topic.startsWith('user:'))) {
            this.hub.unsubscribe(connection, topic)
            connection.topics.delete(topic)
          }
        return connection.reply({ type: 'unsubscribed', topic: message.topic })
      }
    }
  }

  /** The topic of the outbox a client's topic names for this connection; null when it may not subscribe to it. */
  private outboxTopic(connection: Connection, topic: LiveTopic): string | null {
    if (isPublic(topic)) return topic
    const { identity } = connection
    if (topic === 'user') return identity.as === 'user' ? `user:${identity.userId}` : null
    return identity.as === 'admin' ? topic : null
  }

  private async authenticate(connection: Connection, message: Extract<LiveClientMessage, { op: 'auth' }>) {
    // One identity per connection: a client that signs in as someone else opens a new one.
    if (connection.identity.as !== 'anonymous') return connection.close(LIVE_CLOSE.protocol, 'protocol')
    let identity: Exclude<Identity, { as: 'anonymous' }>
    try {
      identity =
        'admin_token' in message
          ? await this.checkAdmin(message.admin_token, connection.ip)
          : await this.checkUser(message.token, message.address)
    } catch (error) {
      if (!isRefusal(error)) throw error
      connection.reply({ type: 'error', error: 'session_invalid' })
      return connection.close(LIVE_CLOSE.sessionInvalid, 'session_invalid')
    }
    if (connection.closed) return
    if ((this.perSession.get(identity.sessionId) ?? 0) >= this.settings.maxPerSession) {
      connection.reply({ type: 'error', error: 'too_many' })
      return connection.close(LIVE_CLOSE.tooMany, 'too_many')
    }
    count(this.perSession, identity.sessionId, 1)
    this.metrics.connections.dec({ as: 'anonymous' })
    this.metrics.connections.inc({ as: identity.as })
    connection.identity = identity
    connection.reply({ type: 'authed', as: identity.as })
  }

  private async checkUser(token: string, address: string): Promise<Identity & { as: 'user' }> {
    const user = await retryTransient(() =>
      sessionUser(this.app.db, token, address, this.app.sessions, this.app.sessionPolicy),
    )
    return { as: 'user', userId: user.id, sessionId: `user:${user.sessionId}`, token, address, checkedAt: Date.now() }
  }

  private async checkAdmin(token: string, ip: string): Promise<Identity & { as: 'admin' }> {
    const admin = await retryTransient(() => adminOf(this.app.db, token, 'viewer', ip))
    return { as: 'admin', sessionId: `admin:${admin.sessionId}`, token }
  }

  /** Every heartbeat: close who missed the last ping, ping the others; sessions are checked again when due. */
  private beat() {
    const now = Date.now()
    const ping = JSON.stringify({ type: 'ping' } satisfies LiveServerMessage)
    for (const connection of this.connections) {
      if (!connection.alive) {
        connection.close(LIVE_CLOSE.heartbeat, 'heartbeat')
        connection.socket.terminate()
        continue
      }
      connection.alive = false
      connection.send(ping)
      const { identity } = connection
      // An admin's role may be removed at any time: checked every beat. A user's session less often.
      if (identity.as === 'admin' || (identity.as === 'user' && now - identity.checkedAt >= SESSION_RECHECK_MS))
        connection.queue = connection.queue.then(() => this.recheck(connection))
    }
  }

  private async recheck(connection: Connection) {
    const { identity } = connection
    if (connection.closed || identity.as === 'anonymous') return
    try {
      if (identity.as === 'admin') await this.checkAdmin(identity.token, connection.ip)
      else {
        const user = await sessionUser(
          this.app.db,
          identity.token,
          identity.address,
          this.app.sessions,
          this.app.sessionPolicy,
        )
        if (`user:${user.sessionId}` === identity.sessionId) identity.checkedAt = Date.now()
        else connection.close(LIVE_CLOSE.sessionInvalid, 'session_invalid')
      }
    } catch (error) {
      // Only a refusal ends the connection: a database that does not answer is checked again next time.
      if (isRefusal(error)) connection.close(LIVE_CLOSE.sessionInvalid, 'session_invalid')
    }
  }
}

/** The session check said no (as opposed to a database that did not answer). */
const isRefusal = (error: unknown) => error instanceof AppError && error.code === Code.SESSION_INVALID

function count(map: Map<string, number>, key: string, change: number) {
  const next = (map.get(key) ?? 0) + change
  if (next <= 0) map.delete(key)
  else map.set(key, next)
}

/** Registers the channel: call before the routes (the WebSocket plugin must see every route registered after it). */
export async function liveChannel(app: FastifyInstance, settings: LiveSettings) {
  const channel = new LiveChannel(app, settings)
  app.decorate('live', channel.hub)
  await app.register(websocket, {
    options: { maxPayload: MAX_CLIENT_MESSAGE, perMessageDeflate: false },
    // The connections are closed with "going away" (clients reconnect to another instance) before the server stops.
    preClose: async () => {
      await channel.stop()
      app.websocketServer.close()
    },
  })
  await channel.start()
  app.route({
    method: 'GET',
    url: API_BASE + LIVE_PATH,
    schema: {
      tags: ['system'],
      summary:
        'The live channel (WebSocket; docs/architecture.md "Live updates"): GET with Upgrade: websocket. Messages ' +
        'are JSON: the client sends auth, sub, unsub and pong (LiveClientMessage), the server welcome, authed, ' +
        'subscribed, event, ping and error (LiveServerMessage). Without Upgrade: HTTP 426; over ' +
        'LIVE_MAX_PER_IP connections from one address: HTTP 429 (code -102)',
      response: {
        101: Type.Object(
          { client: LiveClientMessage, server: LiveServerMessage },
          {
            description:
              'Switching Protocols. Then JSON text frames: the client sends LiveClientMessage (client), the server ' +
              'LiveServerMessage (server); close codes in LIVE_CLOSE (4400 protocol, 4401 session invalid, 4408 no ' +
              'pong, 4409 too slow, 4429 too many connections; 1001 the server stops: reconnect)',
          },
        ),
        426: envelope(Type.Null()),
        429: envelope(Type.Null()),
      },
    },
    preValidation: async (request, reply) => {
      if (!channel.admits(request.ip)) {
        channel.metrics.closed.inc({ reason: 'too_many' })
        return sendEnvelope(request, reply, Code.RATE_LIMITED, 'error.rateLimited', null, undefined, 429)
      }
    },
    handler: async (request, reply) =>
      sendEnvelope(
        request,
        reply.header('upgrade', 'websocket'),
        Code.BAD_REQUEST,
        'error.badRequest',
        null,
        undefined,
        426,
      ),
    wsHandler: (socket, request) => channel.open(socket, request),
  })
}
