import {
  type Commitment,
  createSolanaRpcFromTransport,
  createSolanaRpcSubscriptions,
  type Rpc,
  type RpcSubscriptions,
  type RpcTransport,
  type SolanaRpcApi,
  type SolanaRpcSubscriptionsApi,
} from '@solana/kit'
import { type BackoffOptions, RpcEndpoints } from './endpoints.ts'

/** The commitments the server trusts: 'processed' can still be rolled back, and getTransaction refuses it. */
export type ChainCommitment = Extract<Commitment, 'confirmed' | 'finalized'>

/** The compute-unit price (priority fee) of the transactions the server signs, in micro-lamports per compute unit. */
export interface PriorityFee {
  /** PRIORITY_FEE_MICRO_LAMPORTS: this price always; when absent, a percentile of getRecentPrioritizationFees. */
  fixed?: bigint
  /** PRIORITY_FEE_MAX_MICRO_LAMPORTS: never more than this. */
  max: bigint
  /** PRIORITY_FEE_PERCENTILE: which percentile of the recent fees paid for the written accounts (0–100). */
  percentile: number
}

export const DEFAULT_PRIORITY_FEE: PriorityFee = { max: 1_000_000n, percentile: 75 }

export interface Chain {
  /** Every call fails over across the configured endpoints (endpoints.ts). */
  rpc: Rpc<SolanaRpcApi>
  endpoints: RpcEndpoints
  rpcSubscriptions: RpcSubscriptions<SolanaRpcSubscriptionsApi>
  commitment: ChainCommitment
  priorityFee: PriorityFee
}

export interface ChainOptions {
  commitment?: ChainCommitment
  priorityFee?: PriorityFee
  backoff?: BackoffOptions
  /** Each endpoint's transport instead of HTTP: the simulator's in-process chain and faults (endpoints.ts). */
  transport?: (url: string) => RpcTransport
}

/** The server's chain clients: `rpcUrls` in order of preference (the first is the primary). */
export function createChain(rpcUrls: string | readonly string[], wsUrl: string, options: ChainOptions = {}): Chain {
  const endpoints = new RpcEndpoints(typeof rpcUrls === 'string' ? [rpcUrls] : rpcUrls, {
    ...options.backoff,
    transport: options.transport,
  })
  return {
    rpc: createSolanaRpcFromTransport(endpoints.transport),
    endpoints,
    rpcSubscriptions: createSolanaRpcSubscriptions(wsUrl),
    commitment: options.commitment ?? 'confirmed',
    priorityFee: options.priorityFee ?? DEFAULT_PRIORITY_FEE,
  }
}

export async function getBlockHeight(chain: Chain, commitment: Commitment = chain.commitment): Promise<bigint> {
  return chain.rpc.getBlockHeight({ commitment }).send()
}
