import { availableParallelism } from 'node:os'
import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

// Test tiers (docs/design.md#tests): `unit` and `unit-web` (the web app's) sit beside the code; `api` drives the server through app.inject on a real
// database (PGlite by default, PostgreSQL when TEST_DATABASE_URL is set by scripts/test.mjs). Files named *.pg.test.ts
// need what only PostgreSQL has (several sessions at once): they run in the PostgreSQL pass only, never skipped.
// `production` starts the compiled server (`npm run build` first; scripts/test.mjs runs it after its build stage).
// `faults` runs server instances as processes under kills and dropped database connections (apps/server/test/faults).
// One worker more than the cores (Vitest's default is one less: a single worker on CI's 2 cores). The API files spend a
// good part of their time waiting on the local chain and on the child processes of the crash tests, and the unit files
// on their start-up: with three workers on 2 cores the API pass takes about two thirds of the time (docs/benchmarks.md).
const workers = availableParallelism() + 1
/** The web app's `@/` imports, as its vite config resolves them. */
const webImports = {
  alias: [{ find: /^@\//, replacement: fileURLToPath(new URL('./apps/web/src/', import.meta.url)) }],
}

export default defineConfig({
  test: {
    projects: [
      {
        resolve: webImports,
        test: {
          // The web app's files that render or need a DOM (happy-dom, per file): *.test.tsx, each file isolated.
          name: 'unit-web',
          maxWorkers: workers,
          include: ['apps/web/src/**/*.test.tsx'],
          environment: 'node',
          testTimeout: 60_000,
        },
      },
      {
        resolve: webImports,
        test: {
          name: 'unit',
          maxWorkers: workers,
          include: ['packages/*/src/**/*.test.ts', 'apps/*/src/**/*.test.ts', 'scripts/**/*.test.mjs'],
          environment: 'node',
          testTimeout: 60_000,
          // Like the API files: a worker imports the modules once for all its files, not once a file (less than half
          // the CPU: docs/benchmarks.md). The files that render stay isolated (unit-web): they share one DOM.
          isolate: false,
        },
      },
      {
        test: {
          name: 'api',
          maxWorkers: workers,
          include: ['apps/server/test/**/*.test.ts'],
          exclude: [
            'apps/server/test/production/**',
            'apps/server/test/faults/**',
            ...(process.env.TEST_DATABASE_URL ? [] : ['apps/server/test/**/*.pg.test.ts']),
          ],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // One migrated database per run, copied for each file (apps/server/test/fixtures/database.ts).
          globalSetup: ['apps/server/test/global-setup.ts'],
          // A worker imports the server's modules once for all its files, not once a file: files share no state
          // (each builds its own app on its own database; module-level caches are keyed by database or request).
          isolate: false,
          // Files run in parallel (`workers`): each has its own database (an in-memory PGlite, or a new database on
          // the PostgreSQL cluster), its own local chain on a free port and its own DATA_DIR.
        },
      },
      {
        test: {
          name: 'production',
          include: ['apps/server/test/production/**/*.test.ts'],
          environment: 'node',
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          name: 'faults',
          include: ['apps/server/test/faults/**/*.test.ts'],
          environment: 'node',
          testTimeout: 300_000,
          hookTimeout: 180_000,
          // The server's processes start from one bundle (apps/server/test/fixtures/server-bundle.ts).
          globalSetup: ['apps/server/test/faults/global-setup.ts'],
          // Several server processes on one PostgreSQL (TEST_DATABASE_URL's cluster, or a throwaway one) and the local
          // chain, killed and cut off from the database under load: seconds per process start, so a tier of its own.
        },
      },
    ],
  },
})
