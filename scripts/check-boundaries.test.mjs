import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { checkBoundaries } from './check-boundaries.mjs'

const roots = []
/** A repository tree of the given files (path → text) in a temporary folder. */
function tree(files) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'boundaries-'))
  roots.push(root)
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true })
    fs.writeFileSync(path.join(root, file), text)
  }
  return root
}
afterEach(() => {
  for (const root of roots.splice(0)) fs.rmSync(root, { recursive: true, force: true })
})

const server = 'apps/server/src'
const web = 'apps/web/src'
/** A clean layout: modules b and c through their index.ts, lib and web shared code standing alone. */
const clean = {
  [`${server}/lib/route.ts`]: `import { x } from './x.ts'\nexport const route = x`,
  [`${server}/lib/x.ts`]: 'export const x = 1',
  [`${server}/modules/b/index.ts`]: `export { b } from './service.ts'\nexport { later } from './later.ts'`,
  [`${server}/modules/b/service.ts`]: `import { route } from '../../lib/route.ts'\nexport const b = route`,
  // b/later.ts uses c, and c uses b's service: through the index files this is no cycle between files.
  [`${server}/modules/b/later.ts`]: `import { c } from '../c/index.ts'\nexport const later = () => c`,
  [`${server}/modules/c/index.ts`]: `export { c } from './service.ts'`,
  [`${server}/modules/c/service.ts`]: `import { b } from '../b/index.ts'\nimport type { T } from './types.ts'\nexport const c: T = b`,
  // A cycle of types only is erased at build: allowed.
  [`${server}/modules/c/types.ts`]: `import type { c } from './service.ts'\nexport type T = typeof c`,
  [`${web}/features/f/screen.tsx`]: `import { api } from '../../lib/api.ts'\nimport { Row } from './row.tsx'\nexport const S = [api, Row]`,
  [`${web}/features/f/row.tsx`]: 'export const Row = 1',
  [`${web}/lib/api.ts`]: 'export const api = 1',
  [`${web}/components/button.tsx`]: `import { api } from '@/lib/api.ts'\nexport const B = api`,
  [`${web}/admin/features/users/list.tsx`]: `import { adminApi } from '@/admin/lib/api.ts'\nexport const L = adminApi`,
  [`${web}/admin/lib/api.ts`]: `import { api } from '@/lib/api.ts'\nexport const adminApi = api`,
}

describe('check-boundaries', () => {
  it('passes a layout that keeps the rules', () => {
    expect(checkBoundaries(tree(clean))).toEqual([])
  })

  it.each([
    [
      'a module importing another module’s internals',
      { [`${server}/modules/d/service.ts`]: `import { b } from '../b/service.ts'\nexport const d = b` },
      "apps/server/src/modules/d/service.ts → ../b/service.ts: module d imports module b's internals (import its index.ts)",
    ],
    [
      'lib importing a module',
      { [`${server}/lib/y.ts`]: `import { b } from '../modules/b/index.ts'\nexport const y = b` },
      'apps/server/src/lib/y.ts → ../modules/b/index.ts: server lib/ imports a module',
    ],
    [
      'production code importing the simulator',
      {
        'apps/server/sim/faults.ts': 'export const faults = 1',
        [`${server}/db/x.ts`]: `import { faults } from '../../sim/faults.ts'\nexport const x = faults`,
      },
      'apps/server/src/db/x.ts → ../../sim/faults.ts: production code imports the simulator or the tests',
    ],
    [
      'a feature importing another feature',
      { [`${web}/features/g/x.tsx`]: `import { Row } from '../f/row.tsx'\nexport const X = Row` },
      'apps/web/src/features/g/x.tsx → ../f/row.tsx: feature g imports feature f',
    ],
    [
      'shared web code importing a feature (through the @/ alias)',
      { [`${web}/components/list.tsx`]: `import { Row } from '@/features/f/row.tsx'\nexport const L = Row` },
      'apps/web/src/components/list.tsx → @/features/f/row.tsx: web lib/ or components/ imports a feature',
    ],
    [
      'a console area importing another',
      { [`${web}/admin/features/audit/x.tsx`]: `import { L } from '../users/list.tsx'\nexport const X = L` },
      'apps/web/src/admin/features/audit/x.tsx → ../users/list.tsx: console area audit imports console area users',
    ],
    [
      "the users' app importing the console",
      { [`${web}/features/g/x.tsx`]: `import { adminApi } from '@/admin/lib/api.ts'\nexport const X = adminApi` },
      "apps/web/src/features/g/x.tsx → @/admin/lib/api.ts: the users' app imports the console (a lazy chunk of its own)",
    ],
    [
      'an import cycle',
      {
        [`${server}/p.ts`]: `import { q } from './q.ts'\nexport const p = () => q`,
        [`${server}/q.ts`]: `export { p } from './p.ts'\nexport const q = 1`,
      },
      'import cycle: apps/server/src/p.ts → apps/server/src/q.ts → apps/server/src/p.ts',
    ],
    [
      'a cycle through a module’s index.ts',
      { [`${server}/modules/c/service.ts`]: `import { later } from '../b/index.ts'\nexport const c = later` },
      'import cycle: apps/server/src/modules/b/later.ts → apps/server/src/modules/c/service.ts → apps/server/src/modules/b/later.ts',
    ],
  ])('fails on %s', (_name, change, problem) => {
    expect(checkBoundaries(tree({ ...clean, ...change }))).toEqual([problem])
  })
})
