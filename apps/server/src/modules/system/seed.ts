import path from 'node:path'
import type { Config } from '../../config.ts'
import type { Database } from '../../db/index.ts'
import { loadOrCreateKeypair } from '../../lib/keys.ts'
import type { Platform } from '../../platform.ts'
import { syncConfiguredAdmins } from '../admin/index.ts'
import { platformMints, seedAssets } from '../assets/index.ts'
import { PRODUCTION_BUSINESS_CONFIG, seedBusinessConfig } from '../config/index.ts'
import { seedNotices } from '../notice/index.ts'
import { checkFixedSettings } from './fixed-settings.ts'

/**
 * Start-up setup, idempotent. The assets (on the first start only: the mints checked on the cluster), then the
 * settings fixed at the first start (cluster, mints, treasury, root) are recorded or compared: a change is refused
 * before anything else is written. Then the root user whose address is the first invite code (ROOT_ADDRESS; on the
 * local chain a key generated under DATA_DIR/keys), the business
 * configuration (RANK_INTERVAL_MS gives its first rank interval; its demo values on the local chain or with SEED_DEMO=1,
 * neutral ones otherwise), the ADMIN_ADDRESSES allow-list, and the demo notices and banners on the local chain or with
 * SEED_DEMO=1.
 */
export async function seed(db: Database, config: Config, platform: Platform): Promise<{ rootAddress: string }> {
  const existingRoot = await db
    .selectFrom('users')
    .select('address')
    .where('parent_id', 'is', null)
    .orderBy('id')
    .executeTakeFirst()
  const rootAddress =
    config.rootAddress ??
    existingRoot?.address ??
    (await loadOrCreateKeypair(path.join(config.dataDir, 'keys', 'root.json'))).address
  // The assets first: on the first start they check the mints on the cluster, so a wrong one records nothing.
  await seedAssets(db, config, platform)
  const mints = await platformMints(config, platform)
  await checkFixedSettings(db, {
    SOLANA_CLUSTER: config.cluster,
    PRODUCT_SYMBOL: config.productSymbol,
    PRODUCT_MINT: mints.find((m) => m.symbol !== 'USDT')?.mint,
    USDT_MINT: mints.find((m) => m.symbol === 'USDT')?.mint,
    TREASURY_ADDRESS: platform.treasury.address,
    ROOT_ADDRESS: rootAddress,
  })
  // Demo business values only where demo content is asked for; a real cluster starts neutral (defaults.ts).
  await seedBusinessConfig(db, {
    ...(config.seedDemo ? {} : PRODUCTION_BUSINESS_CONFIG),
    rankIntervalSeconds: Math.round(config.rankIntervalMs / 1000),
  })
  await syncConfiguredAdmins(db, config.adminAddresses)
  if (config.seedDemo) await seedNotices(db)
  if (!existingRoot)
    await db
      .insertInto('users')
      .values({ address: rootAddress, parent_id: null })
      .onConflict((oc) => oc.column('address').doNothing())
      .execute()
  return { rootAddress }
}
