/** The chain the app runs on, as GET /api/config says it (lib/client-config.ts). */
export interface ExplorerCluster {
  cluster: string
  /** The browsers' RPC endpoint: the explorer reads a local or private chain through it. */
  rpcUrl: string
}

/**
 * A transaction on the Solana explorer of the app's cluster: mainnet without a parameter, devnet and testnet by name,
 * any other chain (the local one) as a custom cluster through its RPC URL.
 */
export function explorerTxUrl(signature: string, { cluster, rpcUrl }: ExplorerCluster) {
  const url = `https://explorer.solana.com/tx/${encodeURIComponent(signature)}`
  if (cluster === 'mainnet-beta') return url
  if (cluster === 'devnet' || cluster === 'testnet') return `${url}?cluster=${cluster}`
  return `${url}?cluster=custom&customUrl=${encodeURIComponent(rpcUrl)}`
}
