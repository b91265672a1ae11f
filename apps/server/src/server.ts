import path from 'node:path'
import { buildApp } from './app.ts'
import { loadConfig } from './config.ts'
import { migrate, openDatabase } from './db/index.ts'
import { purgeExpiredNonces } from './modules/auth/service.ts'
import { seed } from './modules/system/seed.ts'

/** Starts the API (and the built web app) from the environment; see README.md for the variables. */
async function main() {
  const config = loadConfig()
  const db = await openDatabase({ url: config.databaseUrl, dir: path.join(config.dataDir, 'pglite') })
  await migrate(db)
  const seeded = await seed(db, config)
  const app = await buildApp({ db, config, logger: { level: config.logLevel } })
  const purge = setInterval(() => purgeExpiredNonces(db).catch((err) => app.log.error(err)), 10 * 60_000)
  purge.unref()

  let closing = false
  const shutdown = async (signal: string) => {
    if (closing) return
    closing = true
    app.log.info({ signal }, 'shutting down')
    clearInterval(purge)
    await app.close()
    await db.destroy()
    process.exit(0)
  }
  process.on('SIGINT', () => void shutdown('SIGINT'))
  process.on('SIGTERM', () => void shutdown('SIGTERM'))

  await app.listen({ host: config.host, port: config.port })
  const url = config.publicUrls[0]
  console.log(`solpledge ready url=${url} root_invite_code=${seeded.rootAddress}`)
  console.log(`  open ${url}/?code=${seeded.rootAddress} to join as the root user's first member`)
}

main().catch((error) => {
  console.error(error)
  process.exit(1)
})
