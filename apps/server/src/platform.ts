import { randomBytes } from 'node:crypto'
import fs from 'node:fs/promises'
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
  /** The secret operator calls carry in the Operator-Token header. */
  operatorToken: string
}

export async function loadPlatform(config: Config): Promise<Platform> {
  const keys = path.join(config.dataDir, 'keys')
  return {
    chain: createChain(config.rpcUrl, config.wsUrl),
    rpcUrl: config.rpcUrl,
    treasury: await loadOrCreateKeypair(path.join(keys, 'treasury.json')),
    hotWallet: await loadOrCreateKeypair(path.join(keys, 'hot-wallet.json')),
    localChain: isLocalChain(config),
    operatorToken: config.operatorToken ?? (await loadOrCreateToken(path.join(keys, 'operator-token'))),
  }
}

/** A random secret kept in a file readable by its owner only (`npm run settle` reads it from there). */
async function loadOrCreateToken(file: string): Promise<string> {
  try {
    return (await fs.readFile(file, 'utf8')).trim()
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
  }
  await fs.mkdir(path.dirname(file), { recursive: true })
  const token = randomBytes(24).toString('hex')
  await fs.writeFile(file, `${token}\n`, { mode: 0o600, flag: 'wx' }).catch(async (error) => {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
  })
  return (await fs.readFile(file, 'utf8')).trim()
}
