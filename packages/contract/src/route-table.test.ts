import fs from 'node:fs'
import { describe, expect, it } from 'vitest'
import { adminApi as adminClientApi } from './admin-client.ts'
import { adminRoutes, api, appRoutes } from './api.ts'
import { api as clientApi, type RouteMeta } from './client.ts'
import type { RouteDef } from './common.ts'

const KEYS: (keyof RouteMeta)[] = ['path', 'auth', 'operator', 'admin', 'multipart', 'idempotent']
const COMMAND = 'UPDATE_ROUTE_TABLE=1 npx vitest run --project unit packages/contract/src/route-table.test.ts'

const literal = (value: unknown) => (typeof value === 'string' ? `'${value}'` : String(value))

/** A generated table as it must read: each route with its metadata and none of its schemas. */
function expectedSource(name: string, routes: Record<string, RouteDef>, from: string) {
  const lines = Object.entries(routes).map(([route, def]) => {
    const fields = KEYS.filter((key) => def[key] !== undefined).map((key) => `${key}: ${literal(def[key])}`)
    return `  ${route}: { ${fields.join(', ')} },`
  })
  return [
    `// Generated from ${from} by route-table.test.ts: do not edit. After changing a route, run`,
    `// ${COMMAND}`,
    `export const ${name} = {`,
    ...lines,
    '} as const',
    '',
  ].join('\n')
}

/** The two tables: the users' app (client.ts) and the operator console's (admin-client.ts), each in its own file. */
const TABLES = [
  { file: 'route-table.ts', name: 'routeTable', routes: appRoutes, from: 'appRoutes (api.ts)' },
  { file: 'admin-route-table.ts', name: 'adminRouteTable', routes: adminRoutes, from: 'admin-routes.ts' },
] as const

describe('the route tables of the web client (client.ts, admin-client.ts)', () => {
  for (const { file, name, routes, from } of TABLES) {
    it(`${file} is as generated (UPDATE_ROUTE_TABLE=1 rewrites it)`, () => {
      const url = new URL(`./${file}`, import.meta.url)
      const expected = expectedSource(name, routes, from)
      if (process.env.UPDATE_ROUTE_TABLE === '1') fs.writeFileSync(url, expected)
      expect(fs.readFileSync(url, 'utf8')).toBe(expected)
    })
  }

  it('split the contract: every route in exactly one of them, the console in none of the users', () => {
    expect([...Object.keys(clientApi), ...Object.keys(adminClientApi)].sort()).toEqual(Object.keys(api).sort())
    expect(Object.values(clientApi).filter((route) => 'admin' in route)).toEqual([])
    expect(Object.values(adminClientApi).filter((route) => !route.path.startsWith('/admin/'))).toEqual([])
  })

  it('gives every route its path and flags and no schema', () => {
    for (const [name, route] of [...Object.entries(clientApi), ...Object.entries(adminClientApi)]) {
      const full = api[name as keyof typeof api]
      expect(route.path, name).toBe(full.path)
      expect(route.auth, name).toBe(full.auth)
      expect(route.idempotent, name).toBe(full.idempotent)
      expect(route.multipart, name).toBe(full.multipart)
      expect(route.admin, name).toBe(full.admin)
      expect(
        Object.keys(route).filter((key) => !(KEYS as string[]).includes(key)),
        name,
      ).toEqual([])
    }
  })
})
