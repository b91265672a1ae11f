// Which cluster an RPC endpoint serves, by its genesis hash: the server refuses to start when one of its endpoints is on
// another cluster than SOLANA_CLUSTER names (a devnet RPC behind SOLANA_CLUSTER=mainnet-beta would take devnet deposits
// for real ones). The local chain is excepted: its genesis is its own.
import { createSolanaRpcFromTransport } from '@solana/kit'
import type { Config } from '../config.ts'
import type { Chain } from './rpc.ts'

/** The genesis hash of each real cluster (`solana genesis-hash`). */
export const GENESIS_HASHES: Record<string, string> = {
  'mainnet-beta': '5eykt4UsFv8P8NJdTREpY1vzqKqZKvdpKuc147dw2N9d',
  devnet: 'EtWTRABZaYq6iMfeYKouRu166VU2xqa1wcaWoxPkrZBG',
  testnet: '4uhcVJyU9pJkvQyS88uRDiswHXSCkY3zQawwpjk2NsNY',
}

const clusterOf = (hash: string) => Object.keys(GENESIS_HASHES).find((name) => GENESIS_HASHES[name] === hash)

/**
 * Asks every configured endpoint its genesis hash. Returns the problems (ConfigError lines, naming SOLANA_RPC_URL and
 * the endpoint's host) and the hosts that did not answer within `timeoutMs` (the caller warns: an endpoint down at
 * start is checked no further, as the server starts anyway and waits for it).
 */
export async function checkGenesis(config: Config, chain: Chain, timeoutMs = 10_000) {
  const problems: string[] = []
  const unanswered: string[] = []
  const expected = GENESIS_HASHES[config.cluster]
  if (config.localChain || !expected) return { problems, unanswered }
  const hosts = chain.endpoints.status().map((endpoint) => endpoint.host)
  await Promise.all(
    chain.endpoints.direct.map(async (transport, i) => {
      const host = hosts[i] as string
      let hash: string
      try {
        hash = await createSolanaRpcFromTransport(transport)
          .getGenesisHash()
          .send({ abortSignal: AbortSignal.timeout(timeoutMs) })
      } catch {
        unanswered.push(host)
        return
      }
      if (hash !== expected)
        problems.push(
          `SOLANA_RPC_URL ${host} serves ${clusterOf(hash) ?? 'another chain'} (genesis hash ${hash}), ` +
            `but SOLANA_CLUSTER is ${config.cluster} (genesis hash ${expected})`,
        )
    }),
  )
  return { problems, unanswered }
}
