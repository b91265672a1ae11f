/** Small helpers shared by the localnet test suites. */
import type { Connection } from '@solana/web3.js'

export function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms waiting for ${what}`)), ms)
  })
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer))
}

/** Raw JSON-RPC POST; returns the whole response object (result or error). */
export async function rpcCall(url: string, method: string, params: unknown[] = []): Promise<Record<string, unknown>> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  })
  return (await response.json()) as Record<string, unknown>
}

export async function rpcResult<T = unknown>(url: string, method: string, params: unknown[] = []): Promise<T> {
  const body = await rpcCall(url, method, params)
  if ('error' in body) throw new Error(`${method} failed: ${JSON.stringify(body.error)}`)
  return body.result as T
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}

/** Resolves with the first slot past `slot` that the chain notifies (slotSubscribe), failing after `ms`. */
export function slotAfter(connection: Connection, slot: number, ms = 5000): Promise<number> {
  let id: number | undefined
  const next = new Promise<number>((resolve) => {
    id = connection.onSlotChange((info) => {
      if (info.slot > slot) resolve(info.slot)
    })
  })
  return withTimeout(next, ms, `a slot after ${slot}`).finally(() => {
    if (id !== undefined) void connection.removeSlotChangeListener(id)
  })
}
