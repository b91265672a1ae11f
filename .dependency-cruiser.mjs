// The import rules of docs/architecture.md ("Layers and boundaries"), checked by dependency-cruiser over every app,
// package, test, e2e journey, benchmark and script: `npm run lint` runs scripts/check-imports.mjs with this file.
// Paths are relative to the repository's root. `$1` in a `to` names what the `from` path's first group matched.
const server = '^apps/server/src/'
const module = `${server}modules/`
/** The server's code below the modules: what any module may build on. */
const serverBase = [`${server}(lib|db|chain|plugins)/`, `${server}(config|platform|build-info)\\.ts$`]
/** A test file, or a file only tests use. */
const test = ['\\.test\\.tsx?$', '\\.test\\.mjs$', '/test/']

/** @type {import('dependency-cruiser').IConfiguration} */
export default {
  forbidden: [
    {
      name: 'no-cycle',
      comment:
        'Two files that import each other (directly or around a loop) load in an order that depends on which one is ' +
        'imported first. An import of an index.ts counts as an import of everything that index re-exports (ESM runs ' +
        'the whole barrel); `import type` is erased and does not count (biome.json makes useImportType an error, so an ' +
        'import of types only is always written so).',
      severity: 'error',
      from: {},
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
    {
      name: 'base-imports-no-module',
      comment:
        'The server code below the modules (lib/, db/, chain/, plugins/, config.ts, platform.ts) imports no module: ' +
        'what a module offers to others is exported from its index.ts for modules and jobs, not for the layer below.',
      severity: 'error',
      from: { path: serverBase },
      to: { path: module },
    },
    {
      name: 'module-through-index',
      comment: "A module imports another module only through its index.ts, never the module's other files.",
      severity: 'error',
      from: { path: `${module}([^/]+)/`, pathNot: test },
      to: { path: module, pathNot: [`${module}$1/`, `${module}[^/]+/index\\.ts$`] },
    },
    {
      name: 'jobs-through-index',
      comment: "A job imports a module only through its index.ts, never the module's other files.",
      severity: 'error',
      from: { path: `${server}jobs/` },
      to: { path: module, pathNot: `${module}[^/]+/index\\.ts$` },
    },
    {
      name: 'module-imports-no-job',
      comment:
        'Modules sit below the jobs: a job calls module services, a module never imports a job (what both need, ' +
        'like the job names and heartbeats, lives in the base code).',
      severity: 'error',
      from: { path: module },
      to: { path: `${server}jobs/` },
    },
    {
      name: 'server-imports-no-tooling',
      comment:
        "The server's code never loads the simulator (apps/server/sim) or the tests: production code offers hooks " +
        '(docs/simulator.md).',
      severity: 'error',
      from: { path: server, pathNot: test },
      to: { path: ['^apps/server/sim/', '^apps/server/test/'] },
    },
    {
      name: 'feature-imports-no-feature',
      comment: 'A web feature imports no other feature: what two features share moves to components/ or lib/.',
      severity: 'error',
      from: { path: '^apps/web/src/features/([^/]+)/' },
      to: { path: '^apps/web/src/features/', pathNot: '^apps/web/src/features/$1/' },
    },
    {
      name: 'web-shared-imports-no-feature',
      comment: 'apps/web/src/lib and apps/web/src/components stay below the features.',
      severity: 'error',
      from: { path: '^apps/web/src/(lib|components)/', pathNot: test },
      to: { path: '^apps/web/src/(admin/)?features/' },
    },
    {
      name: 'console-area-imports-no-area',
      comment: "The console's areas (apps/web/src/admin/features/<area>) import no other area.",
      severity: 'error',
      from: { path: '^apps/web/src/admin/features/([^/]+)/' },
      to: { path: '^apps/web/src/admin/features/', pathNot: '^apps/web/src/admin/features/$1/' },
    },
    {
      name: 'console-shared-imports-no-area',
      comment: "The console's lib/ and components/ stay below its areas.",
      severity: 'error',
      from: { path: '^apps/web/src/admin/(lib|components)/' },
      to: { path: '^apps/web/src/admin/features/' },
    },
    {
      name: 'app-imports-no-console',
      comment:
        "The users' app never imports the operator console's code: the console is a lazy chunk of its own, which " +
        'app/router.tsx loads through import.meta.glob.',
      severity: 'error',
      from: { path: '^apps/web/src/', pathNot: ['^apps/web/src/admin/', ...test] },
      to: { path: '^apps/web/src/admin/' },
    },
    {
      name: 'package-imports-no-app',
      comment: 'Packages sit below the apps: they import no app (the contract is shared by imports the other way).',
      severity: 'error',
      from: { path: '^packages/' },
      to: { path: '^apps/' },
    },
    {
      name: 'web-tests-import-no-server',
      comment:
        "The web app's tests use the web app's code, the packages and the contract; what they compare with the " +
        "server's behaviour comes through the contract.",
      severity: 'error',
      from: { path: '^apps/web/' },
      to: { path: '^apps/server/' },
    },
    {
      name: 'server-tests-import-no-web',
      comment: "The server's tests use the server's code, the packages and the contract, never the web app's.",
      severity: 'error',
      from: { path: '^apps/server/' },
      to: { path: '^apps/web/' },
    },
    {
      name: 'e2e-imports-no-web-code',
      comment:
        'The journeys drive the web app through the browser, as a user does: they start the server (its test ' +
        'fixtures) but import nothing of apps/web/src.',
      severity: 'error',
      from: { path: '^e2e/' },
      to: { path: '^apps/web/src/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['(^|/)node_modules/', '(^|/)dist/', '\\.d\\.ts$'] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'apps/web/tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'default'] },
    skipAnalysisNotInRules: true,
  },
}
