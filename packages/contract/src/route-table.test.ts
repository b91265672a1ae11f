import fs from 'node:fs'
import { describe, expect, it } from 'vitest'
import { api } from './api.ts'
import { api as clientApi, type RouteMeta } from './client.ts'

const FILE = new URL('./route-table.ts', import.meta.url)
const KEYS: (keyof RouteMeta)[] = ['path', 'auth', 'operator', 'admin', 'multipart', 'idempotent']

const literal = (value: unknown) => (typeof value === 'string' ? `'${value}'` : String(value))

/** route-table.ts as it must read: each route of api.ts with its metadata and none of its schemas. */
function expectedSource() {
  const lines = Object.entries(api).map(([name, route]) => {
    const fields = KEYS.filter((key) => route[key] !== undefined).map((key) => `${key}: ${literal(route[key])}`)
    return `  ${name}: { ${fields.join(', ')} },`
  })
  return [
    '// Generated from api.ts by route-table.test.ts: do not edit. After changing a route in api.ts, run',
    '// UPDATE_ROUTE_TABLE=1 npx vitest run --project unit packages/contract/src/route-table.test.ts',
    'export const routeTable = {',
    ...lines,
    '} as const',
    '',
  ].join('\n')
}

describe('the route table of the web client (client.ts)', () => {
  it('is route-table.ts as generated from api.ts (UPDATE_ROUTE_TABLE=1 rewrites it)', () => {
    const expected = expectedSource()
    if (process.env.UPDATE_ROUTE_TABLE === '1') fs.writeFileSync(FILE, expected)
    expect(fs.readFileSync(FILE, 'utf8')).toBe(expected)
  })

  it('gives every route its path and flags and no schema', () => {
    expect(Object.keys(clientApi)).toEqual(Object.keys(api))
    for (const [name, route] of Object.entries(clientApi)) {
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
