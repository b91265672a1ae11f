/** Methods only the local chain (packages/localnet) has: its demo tokens and its faucet. */

export interface LocalToken {
  symbol: string
  mint: string
  decimals: number
  /** The mint's token program (Tokenkeg… or TokenzQd…). */
  program: string
}

async function localnetCall<T>(rpcUrl: string, method: string, params: unknown[]): Promise<T> {
  const response = await fetch(rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  })
  const body = (await response.json()) as { result?: T; error?: { message: string } }
  if (body.result === undefined) throw new Error(`${method} failed: ${body.error?.message ?? response.status}`)
  return body.result
}

export const localnetTokens = (rpcUrl: string) => localnetCall<LocalToken[]>(rpcUrl, 'localnet_getTokens', [])

/** Sends SOL (lamports) and tokens (base units by symbol) to `address`; returns the signatures. */
export const localnetFaucet = (
  rpcUrl: string,
  address: string,
  request: { sol?: string; tokens?: Record<string, string> },
) => localnetCall<string[]>(rpcUrl, 'localnet_faucet', [address, request])
