import { randomBytes } from 'node:crypto'
import fs from 'node:fs/promises'
import path from 'node:path'
import { type Chain, createChain } from './chain/rpc.ts'
import type { Config } from './config.ts'
import { loadOrCreateKeypair, type StoredKeypair } from './lib/keys.ts'
import type { OutageLog } from './lib/reachability.ts'

/** sol: not enough SOL for fees; token_account: no token account of the asset; token_balance: too few tokens. */
export type HotWalletProblemKind = 'sol' | 'token_account' | 'token_balance' | 'other'

export interface HotWalletProblem {
  kind: HotWalletProblemKind
  /** The asset that is short (SOL for fees). */
  asset: string
  /** What the hot wallet holds and what the payout needs, in whole units (formatted). */
  held: string
  needed: string
  /** One English sentence for the log and the withdrawal's error: the cause, the address, how to fund it. */
  detail: string
}

/**
 * Why the hot wallet cannot pay, as a gauge: reset by a payout the node takes, set by one it refuses
 * (modules/withdrawals/hot-wallet.ts). One per process.
 */
export interface HotWalletStatus {
  /** Payouts the node refused since this process started (a counter for metrics). */
  refusedTotal: number
  problem: HotWalletProblem | null
  /** Since when the current problem stands. */
  since: Date | null
}

export const newHotWalletStatus = (): HotWalletStatus => ({ refusedTotal: 0, problem: null, since: null })

/** The platform's side of the chain: the RPC clients and the wallets that receive deposits and pay withdrawals. */
export interface Platform {
  chain: Chain
  /** The cluster's JSON-RPC URL (the local chain's own methods, such as its faucet, are called on it). */
  rpcUrl: string
  /**
   * Receives deposits (payment intents). Its key signs the proof-of-liabilities memo only, when given (TREASURY_KEY;
   * generated on the local chain); otherwise it is an address only.
   */
  treasury: { address: string; key?: StoredKeypair | undefined }
  /** Pays withdrawals. */
  hotWallet: StoredKeypair
  /** Whether the hot wallet could pay the last payouts of this process (the withdrawal sender keeps it). */
  hotWalletStatus: HotWalletStatus
  /** True on the local chain that npm start launched (SOLPLEDGE_LOCAL_CHAIN=1): the faucet and the demo wallet exist. */
  localChain: boolean
  /** The secret operator calls carry in the Operator-Token header. */
  operatorToken: string
}

/**
 * The platform's keys from the configuration (TREASURY_ADDRESS, HOT_WALLET_KEY/HOT_WALLET_KEYFILE): every instance
 * shares them. Only on the local chain are missing ones generated under DATA_DIR/keys. `log` receives the RPC endpoints'
 * outage and recovery lines.
 */
export async function loadPlatform(config: Config, log?: OutageLog): Promise<Platform> {
  const keys = path.join(config.dataDir, 'keys')
  const generated = async (name: string, setting: string) => {
    if (!config.localChain) throw new Error(`${setting} is required off the local chain`)
    return loadOrCreateKeypair(path.join(keys, name))
  }
  const treasury = config.treasuryAddress
    ? { address: config.treasuryAddress, key: config.treasuryKey }
    : await generated('treasury.json', 'TREASURY_ADDRESS').then((key) => ({ address: key.address, key }))
  return {
    chain: createChain([config.rpcUrl, ...config.rpcFallbackUrls], config.wsUrl, {
      priorityFee: config.priorityFee,
      backoff: { log },
    }),
    rpcUrl: config.rpcUrl,
    treasury,
    hotWallet: config.hotWalletKey ?? (await generated('hot-wallet.json', 'HOT_WALLET_KEY')),
    hotWalletStatus: newHotWalletStatus(),
    localChain: config.localChain,
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
