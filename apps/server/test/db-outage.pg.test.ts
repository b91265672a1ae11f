// The database's outage and recovery in the log (docs/operations.md "Logs"): one warning when new connections fail,
// one info line with how long it lasted when one opens again — not a line per failed query. PostgreSQL only (a
// *.pg.test.ts file): a loopback proxy in front of the cluster plays the outage by cutting every connection.
import type net from 'node:net'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Database, openDatabase } from '../src/db/index.ts'
import { proxyTo } from './fixtures/tcp-proxy.ts'
import { createPostgresDatabase, postgresAdminUrl } from './helpers.ts'

describe('the database unreachable and back (postgres)', () => {
  let drop: () => Promise<void>
  let db: Database
  let proxy: { url: string; close: () => void } | undefined
  let down = false
  const sockets = new Set<net.Socket>()
  const lines: { level: string; fields: Record<string, unknown>; message: string }[] = []
  beforeAll(async () => {
    const adminUrl = postgresAdminUrl()
    const created = await createPostgresDatabase(adminUrl)
    drop = created.drop
    proxy = await proxyTo(created.url, (client, connect) => {
      if (down) return client.destroy()
      const server = connect()
      for (const socket of [client, server]) {
        sockets.add(socket)
        socket.on('close', () => sockets.delete(socket))
        socket.on('error', () => {})
      }
      client.pipe(server).pipe(client)
    })
    db = await openDatabase({
      url: proxy.url,
      onConnectionError: () => {},
      log: {
        warn: (fields, message) => lines.push({ level: 'warn', fields: { ...fields }, message }),
        info: (fields, message) => lines.push({ level: 'info', fields: { ...fields }, message }),
      },
    })
  })
  afterAll(async () => {
    await db?.destroy()
    proxy?.close()
    await drop?.()
  })

  it('logs one warning when it stops answering and one info line with the outage length when it is back', async () => {
    await sql`select 1`.execute(db)
    expect(lines).toEqual([])

    down = true
    for (const socket of sockets) socket.destroy()
    for (let i = 0; i < 3; i++) await expect(sql`select 1`.execute(db)).rejects.toThrow()
    expect(lines).toEqual([
      {
        level: 'warn',
        fields: { host: expect.stringMatching(/^127\.0\.0\.1:\d+$/), err: expect.any(String) },
        message: 'database unreachable',
      },
    ])

    down = false
    await sql`select 1`.execute(db)
    await sql`select 1`.execute(db)
    expect(lines).toHaveLength(2)
    expect(lines[1]).toEqual({
      level: 'info',
      fields: { host: lines[0]?.fields.host, down_ms: expect.any(Number) },
      message: expect.stringMatching(/^database reachable again after \d+ s$/),
    })
    expect(lines[1]?.fields.down_ms).toBeGreaterThan(0)
  })
})
