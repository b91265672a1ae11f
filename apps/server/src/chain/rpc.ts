import {
  type Commitment,
  createSolanaRpc,
  createSolanaRpcSubscriptions,
  type Rpc,
  type RpcSubscriptions,
  type SolanaRpcApi,
  type SolanaRpcSubscriptionsApi,
} from '@solana/kit'

/** The commitments the server trusts: 'processed' can still be rolled back, and getTransaction refuses it. */
export type ChainCommitment = Extract<Commitment, 'confirmed' | 'finalized'>

export interface Chain {
  rpc: Rpc<SolanaRpcApi>
  rpcSubscriptions: RpcSubscriptions<SolanaRpcSubscriptionsApi>
  commitment: ChainCommitment
}

export function createChain(rpcUrl: string, wsUrl: string, commitment: ChainCommitment = 'confirmed'): Chain {
  return { rpc: createSolanaRpc(rpcUrl), rpcSubscriptions: createSolanaRpcSubscriptions(wsUrl), commitment }
}

export async function getBlockHeight(chain: Chain, commitment: Commitment = chain.commitment): Promise<bigint> {
  return chain.rpc.getBlockHeight({ commitment }).send()
}
