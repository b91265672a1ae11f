import type { Server } from 'node:http'
import { Chain } from './chain.ts'
import { DEFAULT_TOKENS, Faucet, type FaucetRequest, type TokenConfig, type TokenInfo } from './faucet.ts'
import { closeServer, createRpcServer, handleJsonRpc, listen } from './server.ts'
import { SubscriptionServer } from './ws.ts'

export type { Chain, TransactionRecord } from './chain.ts'
export type { FaucetRequest, TokenConfig, TokenInfo } from './faucet.ts'
export { DEFAULT_TOKENS } from './faucet.ts'

export interface LocalnetOptions {
  /** Interface to listen on (default 127.0.0.1). */
  host?: string
  /** JSON-RPC HTTP port; WebSocket upgrades are served on it too (default 8899; 0 = a random free port). */
  port?: number
  /**
   * Extra WebSocket port (default port+1, the port web3.js derives from the RPC URL; when port is 0, port+1 if free,
   * otherwise a random free port).
   */
  wsPort?: number
  /** Slot duration in ms; slots and block height advance on this timer (default 400). */
  slotMs?: number
  /** Directory where the chain state persists across restarts (accounts, transaction store, demo tokens). */
  stateDir?: string
  /** Demo SPL tokens created on first start (default PLG with 9 decimals and USDT with 6). */
  tokens?: TokenConfig[]
  /**
   * The genesis hash getGenesisHash answers (default: the chain's own). A test that has the server take the local chain
   * for a real cluster gives that cluster's, which the server checks at start.
   */
  genesisHash?: string
}

export interface Localnet {
  rpcUrl: string
  wsUrl: string
  tokens: TokenInfo[]
  /** Sends lamports and/or mints demo tokens (by symbol, in base units) to `address`; returns the signatures. */
  faucet(address: string, request: FaucetRequest): Promise<string[]>
  /** Stops the slot timer, closes the servers and sockets and writes the state. */
  close(): Promise<void>
}

function urlHost(host: string): string {
  if (host === '0.0.0.0' || host === '::' || host === '') return '127.0.0.1'
  return host.includes(':') ? `[${host}]` : host
}

/** Starts a LiteSVM-backed local Solana chain with a JSON-RPC (HTTP) and WebSocket subscription server. */
export async function startLocalnet(options: LocalnetOptions = {}): Promise<Localnet> {
  const host = options.host ?? '127.0.0.1'
  const slotMs = options.slotMs ?? 400
  if (!Number.isFinite(slotMs) || slotMs < 1) throw new Error('slotMs must be a positive number')

  const chain = await Chain.open({ slotMs, stateDir: options.stateDir })
  if (options.genesisHash) chain.genesisHash = options.genesisHash
  const servers: Server[] = []
  let subscriptions: SubscriptionServer | undefined
  try {
    const faucet = await Faucet.init(chain, options.tokens ?? DEFAULT_TOKENS)
    const ctx = { chain, faucet }
    subscriptions = new SubscriptionServer(chain)

    const rpcServer = createRpcServer(ctx)
    subscriptions.attach(rpcServer)
    servers.push(rpcServer)
    const port = await listen(rpcServer, options.port ?? 8899, host)

    let wsPort = port
    if (options.wsPort !== port) {
      const wsServer = createRpcServer(ctx)
      subscriptions.attach(wsServer)
      servers.push(wsServer)
      if (options.wsPort !== undefined) {
        wsPort = await listen(wsServer, options.wsPort, host)
      } else if (options.port === 0) {
        wsPort = await listen(wsServer, port + 1, host).catch(() => listen(wsServer, 0, host))
      } else {
        wsPort = await listen(wsServer, port + 1, host)
      }
    }

    chain.start()
    const hostname = urlHost(host)
    let closing: Promise<void> | undefined
    return {
      rpcUrl: `http://${hostname}:${port}`,
      wsUrl: `ws://${hostname}:${wsPort}`,
      tokens: faucet.tokens.map((t) => ({ ...t })),
      faucet: (address, request) => faucet.fund(address, request),
      close: () => {
        closing ??= (async () => {
          await subscriptions?.close()
          await Promise.all(servers.map(closeServer))
          await chain.close()
        })()
        return closing
      },
    }
  } catch (error) {
    await subscriptions?.close()
    await Promise.all(servers.filter((s) => s.listening).map(closeServer))
    await chain.close()
    throw error
  }
}

export interface LocalChainOptions {
  /** Derives the genesis hash and every key the chain makes (faucet, mints) from this: the same seed, the same chain. */
  seed?: string
  /** Demo SPL tokens created at once (default PLG with 9 decimals and USDT with 6). */
  tokens?: TokenConfig[]
}

/** The local chain in this process, without servers or timers: its owner produces the slots. */
export interface LocalChain {
  chain: Chain
  tokens: TokenInfo[]
  faucet(address: string, request: FaucetRequest): Promise<string[]>
  /** Answers a parsed JSON-RPC body (a request or a batch) exactly as the HTTP server would. */
  request(body: unknown): Promise<unknown>
}

/**
 * The chain of startLocalnet in-process: the simulator (apps/server/sim) gives it to the server as its RPC transport and
 * calls `chain.tick()` itself, so slots, blockhashes and their expiry follow its clock.
 */
export async function openLocalChain(options: LocalChainOptions = {}): Promise<LocalChain> {
  const chain = await Chain.open({ slotMs: 400, ...(options.seed === undefined ? {} : { seed: options.seed }) })
  const faucet = await Faucet.init(chain, options.tokens ?? DEFAULT_TOKENS, options.seed)
  const ctx = { chain, faucet }
  return {
    chain,
    tokens: faucet.tokens.map((t) => ({ ...t })),
    faucet: (address, request) => faucet.fund(address, request),
    request: (body) => handleJsonRpc(body, ctx),
  }
}
