import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { stringifyJson } from './codec.ts'
import { INTERNAL_ERROR, INVALID_REQUEST, PARSE_ERROR, RpcError } from './errors.ts'
import { callMethod, type RpcContext } from './rpc.ts'

const MAX_BODY_BYTES = 10 * 1024 * 1024

interface JsonRpcRequest {
  jsonrpc?: unknown
  id?: unknown
  method?: unknown
  params?: unknown
}

function errorResponse(id: unknown, error: RpcError) {
  const body: Record<string, unknown> = { code: error.code, message: error.message }
  if (error.data !== undefined) body.data = error.data
  return { jsonrpc: '2.0', error: body, id: id ?? null }
}

async function handleRequest(request: unknown, ctx: RpcContext): Promise<object> {
  if (!request || typeof request !== 'object' || Array.isArray(request)) {
    return errorResponse(null, new RpcError(INVALID_REQUEST, 'Invalid request'))
  }
  const { jsonrpc, id, method, params } = request as JsonRpcRequest
  const rpcId = typeof id === 'string' || typeof id === 'number' ? id : null
  if (jsonrpc !== '2.0' || typeof method !== 'string') {
    return errorResponse(rpcId, new RpcError(INVALID_REQUEST, 'Invalid request'))
  }
  try {
    return { jsonrpc: '2.0', result: await callMethod(method, params, ctx), id: rpcId }
  } catch (error) {
    if (error instanceof RpcError) return errorResponse(rpcId, error)
    console.error(`[localnet] ${method} failed:`, error)
    return errorResponse(rpcId, new RpcError(INTERNAL_ERROR, `Internal error: ${(error as Error).message}`))
  }
}

/** Handles a parsed JSON-RPC body: a single request or a batch. */
export async function handleJsonRpc(body: unknown, ctx: RpcContext): Promise<unknown> {
  if (Array.isArray(body)) {
    if (body.length === 0) return errorResponse(null, new RpcError(INVALID_REQUEST, 'Invalid request'))
    const responses: object[] = []
    // Sequential, so a batch that sends then queries observes its own effects in order.
    for (const request of body) responses.push(await handleRequest(request, ctx))
    return responses
  }
  return handleRequest(body, ctx)
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    req.on('data', (chunk: Buffer) => {
      size += chunk.length
      if (size > MAX_BODY_BYTES) {
        reject(new Error('request body too large'))
        req.destroy()
        return
      }
      chunks.push(chunk)
    })
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')))
    req.on('error', reject)
  })
}

const CORS_HEADERS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'POST, GET, OPTIONS',
  'access-control-allow-headers': '*',
  'access-control-max-age': '86400',
}

async function onHttpRequest(req: IncomingMessage, res: ServerResponse, ctx: RpcContext): Promise<void> {
  if (req.method === 'OPTIONS') {
    res.writeHead(204, CORS_HEADERS).end()
    return
  }
  if (req.method === 'GET') {
    // Validators answer GET /health with a plain "ok".
    const ok = req.url === '/health'
    res
      .writeHead(ok ? 200 : 405, { ...CORS_HEADERS, 'content-type': 'text/plain' })
      .end(ok ? 'ok' : 'Used HTTP Method is not allowed. POST or OPTIONS is required')
    return
  }
  if (req.method !== 'POST') {
    res.writeHead(405, CORS_HEADERS).end()
    return
  }
  let text: string
  try {
    text = await readBody(req)
  } catch {
    res.writeHead(413, CORS_HEADERS).end()
    return
  }
  let response: unknown
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    response = errorResponse(null, new RpcError(PARSE_ERROR, 'Parse error'))
  }
  if (response === undefined) response = await handleJsonRpc(body, ctx)
  res.writeHead(200, { ...CORS_HEADERS, 'content-type': 'application/json; charset=utf-8' })
  res.end(stringifyJson(response))
}

/** An HTTP server answering JSON-RPC POSTs (and GET /health). */
export function createRpcServer(ctx: RpcContext): Server {
  const server = createServer((req, res) => {
    onHttpRequest(req, res, ctx).catch((error) => {
      console.error('[localnet] request failed:', error)
      if (!res.headersSent) res.writeHead(500).end()
    })
  })
  server.keepAliveTimeout = 30_000
  return server
}

export function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (error: Error) => reject(error)
    server.once('error', onError)
    server.listen(port, host, () => {
      server.off('error', onError)
      resolve((server.address() as AddressInfo).port)
    })
  })
}

export function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve())
    server.closeAllConnections()
  })
}
