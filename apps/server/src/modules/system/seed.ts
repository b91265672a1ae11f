import path from 'node:path'
import { type Config, isLocalChain } from '../../config.ts'
import type { Database } from '../../db/index.ts'
import { loadOrCreateKeypair } from '../../lib/keys.ts'

export interface SeedResult {
  rootAddress: string
  treasuryAddress: string
  hotWalletAddress: string
}

/**
 * First-start setup, idempotent: platform keypairs under DATA_DIR/keys and the root user whose address is the first
 * invite code. On the local chain the root key is generated too; elsewhere ROOT_ADDRESS names the operator's wallet.
 */
export async function seed(db: Database, config: Config): Promise<SeedResult> {
  const keys = path.join(config.dataDir, 'keys')
  const treasury = await loadOrCreateKeypair(path.join(keys, 'treasury.json'))
  const hotWallet = await loadOrCreateKeypair(path.join(keys, 'hot-wallet.json'))
  const existingRoot = await db
    .selectFrom('users')
    .select('address')
    .where('parent_id', 'is', null)
    .orderBy('id')
    .executeTakeFirst()
  let rootAddress = existingRoot?.address
  if (!rootAddress) {
    if (config.rootAddress) rootAddress = config.rootAddress
    else if (isLocalChain(config)) rootAddress = (await loadOrCreateKeypair(path.join(keys, 'root.json'))).address
    else throw new Error('ROOT_ADDRESS must name the root wallet on the first start against a real cluster')
    await db
      .insertInto('users')
      .values({ address: rootAddress, parent_id: null })
      .onConflict((oc) => oc.column('address').doNothing())
      .execute()
  }
  return { rootAddress, treasuryAddress: treasury.address, hotWalletAddress: hotWallet.address }
}
