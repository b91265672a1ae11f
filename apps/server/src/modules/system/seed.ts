import path from 'node:path'
import { type Config, isLocalChain } from '../../config.ts'
import type { Database } from '../../db/index.ts'
import { loadOrCreateKeypair } from '../../lib/keys.ts'
import type { Platform } from '../../platform.ts'
import { syncConfiguredAdmins } from '../admin/admins.ts'
import { seedAssets } from '../assets/seed.ts'
import { seedBusinessConfig } from '../config/service.ts'
import { seedNotices } from '../notices/seed.ts'

/**
 * First-start setup, idempotent: the root user whose address is the first invite code (on the local chain its key is
 * generated under DATA_DIR/keys; elsewhere ROOT_ADDRESS names the operator's wallet), the assets and the demo
 * business configuration (RANK_INTERVAL_MS gives its first rank interval), and the ADMIN_ADDRESSES allow-list.
 */
export async function seed(db: Database, config: Config, platform: Platform): Promise<{ rootAddress: string }> {
  const keys = path.join(config.dataDir, 'keys')
  await seedAssets(db, config, platform)
  await seedBusinessConfig(db, { rankIntervalSeconds: Math.round(config.rankIntervalMs / 1000) })
  await syncConfiguredAdmins(db, config.adminAddresses)
  await seedNotices(db)
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
  return { rootAddress }
}
