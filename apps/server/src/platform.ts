import path from 'node:path'
import { type Chain, createChain } from './chain/rpc.ts'
import { type Config, isLocalChain } from './config.ts'
import { loadOrCreateKeypair, type StoredKeypair } from './lib/keys.ts'

/** The platform's side of the chain: the RPC clients and the wallets that receive deposits and pay withdrawals. */
export interface Platform {
  chain: Chain
  /** The cluster's JSON-RPC URL (the local chain's own methods, such as its faucet, are called on it). */
  rpcUrl: string
  /** Receives deposits (payment intents). */
  treasury: StoredKeypair
  /** Pays withdrawals. */
  hotWallet: StoredKeypair
  /** True on the local chain: the faucet and the demo wallet exist. */
  localChain: boolean
}

export async function loadPlatform(config: Config): Promise<Platform> {
  const keys = path.join(config.dataDir, 'keys')
  return {
    chain: createChain(config.rpcUrl, config.wsUrl),
    rpcUrl: config.rpcUrl,
    treasury: await loadOrCreateKeypair(path.join(keys, 'treasury.json')),
    hotWallet: await loadOrCreateKeypair(path.join(keys, 'hot-wallet.json')),
    localChain: isLocalChain(config),
  }
}
