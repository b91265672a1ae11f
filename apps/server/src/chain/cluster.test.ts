import { type Localnet, startLocalnet } from '@solpledge/localnet'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Config, loadConfig } from '../config.ts'
import { checkGenesis, GENESIS_HASHES } from './cluster.ts'
import { createChain } from './rpc.ts'

/** The local chain's config, taken for a real cluster: as a server whose SOLANA_RPC_URL points at this chain. */
const configFor = (cluster: string): Config => ({
  ...loadConfig({ SOLPLEDGE_LOCAL_CHAIN: '1' }),
  localChain: false,
  cluster,
})

describe('the RPC endpoints serve the cluster SOLANA_CLUSTER names (genesis hash)', () => {
  let own: Localnet
  let devnet: Localnet
  beforeAll(async () => {
    // One chain with a genesis of its own, one that answers devnet's.
    ;[own, devnet] = await Promise.all([
      startLocalnet({ port: 0 }),
      startLocalnet({ port: 0, genesisHash: GENESIS_HASHES.devnet }),
    ])
  }, 60_000)
  afterAll(async () => {
    await Promise.all([own?.close(), devnet?.close()])
  })
  const host = (url: string) => new URL(url).host

  it('accepts endpoints of the named cluster', async () => {
    const chain = createChain([devnet.rpcUrl], devnet.wsUrl)
    expect(await checkGenesis(configFor('devnet'), chain)).toEqual({ problems: [], unanswered: [] })
  })

  it('refuses an endpoint of another cluster, or of no known one, naming SOLANA_RPC_URL, its host and both hashes', async () => {
    const chain = createChain([devnet.rpcUrl, own.rpcUrl], devnet.wsUrl)
    const { problems } = await checkGenesis(configFor('mainnet-beta'), chain)
    // In the order the endpoints answer, which varies from run to run.
    expect(problems).toHaveLength(2)
    expect(problems).toEqual(
      expect.arrayContaining([
        `SOLANA_RPC_URL ${host(devnet.rpcUrl)} serves devnet (genesis hash ${GENESIS_HASHES.devnet}), but ` +
          `SOLANA_CLUSTER is mainnet-beta (genesis hash ${GENESIS_HASHES['mainnet-beta']})`,
        expect.stringMatching(
          new RegExp(
            `^SOLANA_RPC_URL ${host(own.rpcUrl)} serves another chain \\(genesis hash \\w+\\), but SOLANA_CLUSTER is mainnet-beta`,
          ),
        ),
      ]),
    )
    // A fallback endpoint on another cluster is refused too, though the primary is right.
    const fallback = await checkGenesis(configFor('devnet'), chain)
    expect(fallback.problems).toHaveLength(1)
    expect(fallback.problems[0]).toContain(host(own.rpcUrl))
  })

  it('names an endpoint that does not answer (the server starts and warns), and leaves the local chain unchecked', async () => {
    const chain = createChain([devnet.rpcUrl, 'http://127.0.0.1:9'], devnet.wsUrl)
    expect(await checkGenesis(configFor('devnet'), chain, 2000)).toEqual({
      problems: [],
      unanswered: ['127.0.0.1:9'],
    })
    const local = createChain([own.rpcUrl], own.wsUrl)
    expect(await checkGenesis({ ...configFor('localnet'), localChain: true }, local)).toEqual({
      problems: [],
      unanswered: [],
    })
  })
})
