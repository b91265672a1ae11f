// Each rule of .dependency-cruiser.mjs refuses its probe: a small repository tree that keeps every rule, and for each
// rule one change that breaks it, cruised with the same configuration `npm run lint` uses.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { cruiseTree, violationsOf } from './check-imports.mjs'

const roots = []
/** A repository tree of the given files (path → text) in a temporary folder. */
function tree(files) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'imports-'))
  roots.push(root)
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true })
    fs.writeFileSync(path.join(root, file), text)
  }
  return root
}
afterAll(() => {
  for (const root of roots) fs.rmSync(root, { recursive: true, force: true })
})

const server = 'apps/server/src'
const web = 'apps/web/src'
/** A clean layout: every layer, modules b and c through their index.ts, tests on each side. */
const clean = {
  // The web app's `@/` alias, as its tsconfig declares it.
  'apps/web/tsconfig.json': JSON.stringify({ compilerOptions: { paths: { '@/*': ['./src/*'] } } }),
  'packages/contract/src/index.ts': 'export const api = 1',
  'packages/contract/package.json': JSON.stringify({
    name: '@solpledge/contract',
    type: 'module',
    exports: { '.': './src/index.ts' },
  }),
  [`${server}/lib/route.ts`]: `import { x } from './x.ts'\nexport const route = x`,
  [`${server}/lib/x.ts`]: 'export const x = 1',
  [`${server}/lib/jobs.ts`]: 'export const JOBS = 1',
  [`${server}/config.ts`]: `import { route } from './lib/route.ts'\nexport const config = route`,
  [`${server}/modules/b/index.ts`]: `export { b } from './service.ts'`,
  [`${server}/modules/b/service.ts`]: `import { route } from '../../lib/route.ts'\nexport const b = route`,
  [`${server}/modules/c/index.ts`]: `export { c } from './service.ts'`,
  [`${server}/modules/c/service.ts`]: `import { b } from '../b/index.ts'\nimport { JOBS } from '../../lib/jobs.ts'\nimport type { T } from './types.ts'\nexport const c: T = b + JOBS`,
  // A cycle of types only is erased at build: allowed.
  [`${server}/modules/c/types.ts`]: `import type { c } from './service.ts'\nexport type T = typeof c`,
  // A module's own test may reach another module's files (nothing imports a test).
  [`${server}/modules/c/service.test.ts`]: `import { b } from '../b/service.ts'\nexport const t = b`,
  [`${server}/jobs/c-job.ts`]: `import { c } from '../modules/c/index.ts'\nimport { JOBS } from '../lib/jobs.ts'\nexport const job = [c, JOBS]`,
  [`${server}/app.ts`]: `import { job } from './jobs/c-job.ts'\nimport { b } from './modules/b/service.ts'\nexport const app = [job, b]`,
  'apps/server/test/b.test.ts': `import { api } from '@solpledge/contract'\nimport { app } from '../src/app.ts'\nexport const t = [api, app]`,
  'apps/server/sim/faults.ts': `import { app } from '../src/app.ts'\nexport const faults = app`,
  [`${web}/features/f/screen.tsx`]: `import { api } from '../../lib/api.ts'\nimport { Row } from './row.tsx'\nexport const S = [api, Row]`,
  [`${web}/features/f/row.tsx`]: 'export const Row = 1',
  [`${web}/features/f/row.test.ts`]: `import { api } from '@solpledge/contract'\nimport { Row } from './row.tsx'\nexport const t = [api, Row]`,
  [`${web}/lib/api.ts`]: `import { api as contract } from '@solpledge/contract'\nexport const api = contract`,
  [`${web}/components/button.tsx`]: `import { api } from '@/lib/api.ts'\nexport const B = api`,
  // A shared component's test may use the features it is shown in.
  [`${web}/components/button.test.tsx`]: `import { Row } from '@/features/f/row.tsx'\nimport { B } from './button.tsx'\nexport const t = [Row, B]`,
  [`${web}/app/routes.tsx`]: `import { S } from '@/features/f/screen.tsx'\nexport const R = [S]`,
  [`${web}/admin/features/users/list.tsx`]: `import { adminApi } from '@/admin/lib/api.ts'\nexport const L = adminApi`,
  [`${web}/admin/lib/api.ts`]: `import { api } from '@/lib/api.ts'\nexport const adminApi = api`,
  'packages/proof/src/verify.ts': `import { api } from '@solpledge/contract'\nexport const verify = api`,
  'e2e/login.spec.ts': `import { app } from '../apps/server/src/app.ts'\nexport const t = app`,
}

/** The broken rules of the clean tree with `change` applied. */
const brokenBy = async (change) => violationsOf(await cruiseTree(tree({ ...clean, ...change })))

describe('the import rules (.dependency-cruiser.mjs)', () => {
  it('pass a layout that keeps them', async () => {
    expect(await brokenBy({})).toEqual([])
  })

  it.each([
    [
      'a module importing another module’s internals',
      { [`${server}/modules/d/service.ts`]: `import { b } from '../b/service.ts'\nexport const d = b` },
      ['module-through-index: apps/server/src/modules/d/service.ts → apps/server/src/modules/b/service.ts'],
    ],
    [
      'lib importing a module',
      { [`${server}/lib/y.ts`]: `import { b } from '../modules/b/index.ts'\nexport const y = b` },
      ['base-imports-no-module: apps/server/src/lib/y.ts → apps/server/src/modules/b/index.ts'],
    ],
    [
      'config.ts importing a module',
      { [`${server}/config.ts`]: `import { b } from './modules/b/index.ts'\nexport const config = b` },
      ['base-imports-no-module: apps/server/src/config.ts → apps/server/src/modules/b/index.ts'],
    ],
    [
      'a job importing a module’s service',
      { [`${server}/jobs/b-job.ts`]: `import { b } from '../modules/b/service.ts'\nexport const job = b` },
      ['jobs-through-index: apps/server/src/jobs/b-job.ts → apps/server/src/modules/b/service.ts'],
    ],
    [
      'a module importing a job',
      { [`${server}/modules/b/status.ts`]: `import { job } from '../../jobs/c-job.ts'\nexport const s = job` },
      ['module-imports-no-job: apps/server/src/modules/b/status.ts → apps/server/src/jobs/c-job.ts'],
    ],
    [
      'production code importing the simulator',
      { [`${server}/lib/y.ts`]: `import { faults } from '../../sim/faults.ts'\nexport const y = faults` },
      ['server-imports-no-tooling: apps/server/src/lib/y.ts → apps/server/sim/faults.ts'],
    ],
    [
      'a feature importing another feature',
      { [`${web}/features/g/x.tsx`]: `import { Row } from '../f/row.tsx'\nexport const X = Row` },
      ['feature-imports-no-feature: apps/web/src/features/g/x.tsx → apps/web/src/features/f/row.tsx'],
    ],
    [
      'shared web code importing a feature (through the @/ alias)',
      { [`${web}/components/list.tsx`]: `import { Row } from '@/features/f/row.tsx'\nexport const L = Row` },
      ['web-shared-imports-no-feature: apps/web/src/components/list.tsx → apps/web/src/features/f/row.tsx'],
    ],
    [
      'a console area importing another',
      { [`${web}/admin/features/audit/x.tsx`]: `import { L } from '../users/list.tsx'\nexport const X = L` },
      [
        'console-area-imports-no-area: apps/web/src/admin/features/audit/x.tsx → apps/web/src/admin/features/users/list.tsx',
      ],
    ],
    [
      'the console’s lib importing one of its areas',
      { [`${web}/admin/lib/y.ts`]: `import { L } from '@/admin/features/users/list.tsx'\nexport const Y = L` },
      ['console-shared-imports-no-area: apps/web/src/admin/lib/y.ts → apps/web/src/admin/features/users/list.tsx'],
    ],
    [
      "the users' app importing the console",
      { [`${web}/features/g/x.tsx`]: `import { adminApi } from '@/admin/lib/api.ts'\nexport const X = adminApi` },
      ['app-imports-no-console: apps/web/src/features/g/x.tsx → apps/web/src/admin/lib/api.ts'],
    ],
    [
      'a package importing an app',
      {
        'packages/proof/src/y.ts': `import { b } from '../../../apps/server/src/modules/b/index.ts'\nexport const y = b`,
      },
      ['package-imports-no-app: packages/proof/src/y.ts → apps/server/src/modules/b/index.ts'],
    ],
    [
      "a web test importing the server's code",
      {
        [`${web}/features/f/row.test.ts`]: `import { b } from '../../../../server/src/modules/b/service.ts'\nexport const t = b`,
      },
      ['web-tests-import-no-server: apps/web/src/features/f/row.test.ts → apps/server/src/modules/b/service.ts'],
    ],
    [
      "a server test importing the web app's code",
      { 'apps/server/test/b.test.ts': `import { api } from '../../web/src/lib/api.ts'\nexport const t = api` },
      ['server-tests-import-no-web: apps/server/test/b.test.ts → apps/web/src/lib/api.ts'],
    ],
    [
      "an e2e journey importing the web app's code",
      { 'e2e/login.spec.ts': `import { api } from '../apps/web/src/lib/api.ts'\nexport const t = api` },
      ['e2e-imports-no-web-code: e2e/login.spec.ts → apps/web/src/lib/api.ts'],
    ],
    [
      'an import cycle',
      {
        [`${server}/p.ts`]: `import { q } from './q.ts'\nexport const p = () => q`,
        [`${server}/q.ts`]: `export { p } from './p.ts'\nexport const q = 1`,
      },
      ['no-cycle: apps/server/src/p.ts → apps/server/src/q.ts → apps/server/src/p.ts'],
    ],
    [
      'a cycle once its imports take values (the clean tree has it with `import type`)',
      {
        [`${server}/modules/c/service.ts`]: `import { b } from '../b/index.ts'\nimport { u } from './types.ts'\nexport const c = b + u`,
        [`${server}/modules/c/types.ts`]: `import { c } from './service.ts'\nexport const u = 1\nexport const v = () => c`,
      },
      [
        'no-cycle: apps/server/src/modules/c/service.ts → apps/server/src/modules/c/types.ts → apps/server/src/modules/c/service.ts',
      ],
    ],
    [
      // ESM runs the whole barrel: b/index.ts loads b/later.ts, which loads c, which loads b/index.ts.
      'a cycle through a module’s index.ts',
      {
        [`${server}/modules/b/index.ts`]: `export { b } from './service.ts'\nexport { later } from './later.ts'`,
        [`${server}/modules/b/later.ts`]: `import { c } from '../c/index.ts'\nexport const later = () => c`,
      },
      [
        'no-cycle: apps/server/src/modules/b/index.ts → apps/server/src/modules/b/later.ts → apps/server/src/modules/c/index.ts → apps/server/src/modules/c/service.ts → apps/server/src/modules/b/index.ts',
      ],
    ],
  ])('refuse %s', async (_name, change, broken) => {
    expect((await brokenBy(change)).sort()).toEqual(broken.sort())
  })
})
