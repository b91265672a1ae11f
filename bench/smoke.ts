// bench:smoke — every benchmark at a tiny size, so that none can rot unnoticed (a stage of `npm test`). Each runs as
// its `npm run bench:*` script does (its own process, its documented options), with one PostgreSQL cluster for all of
// them (bench/postgres.ts), and must run to the end, exit 0 and print its figures. The figures themselves are not
// judged: at these sizes they mean nothing. Nothing is left out; a bench that cannot run here fails the stage.
// Three benches run at a time (--jobs), the longest first: most of a bench's time at this size is spent starting
// processes and waiting on them (servers, the local chain, Chromium), so one at a time left the cores idle. They share
// nothing but the cluster, where each makes databases of its own names.
// Usage: npm run bench:smoke [-- --only http,ledger --jobs 3 --report FILE]
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { buildServerBundle } from '../apps/server/test/fixtures/server-bundle.ts'
// @ts-expect-error plain ESM helper shared with the npm scripts
import { startPostgres } from '../scripts/postgres.mjs'
import type { BenchCluster } from './postgres.ts'

const { values } = parseArgs({
  options: { only: { type: 'string' }, jobs: { type: 'string', default: '3' }, report: { type: 'string' } },
})

/** What each bench must print: a table of figures (console.table), or its figures' lines. */
const TABLE = /┌.*┐[\s\S]*\d[\s\S]*└.*┘/
interface Bench {
  name: string
  args: string[]
  figures: RegExp
  /** Its servers take their databases from TEST_DATABASE_URL (apps/server/test/fixtures/instances.ts). */
  testDatabase?: boolean
}
/** Longest first (their time in npm test), so that the last to start are short ones. */
const BENCHES: Bench[] = [
  // The web app built by `npm run build` when there is one (npm test builds it first); one page, once.
  { name: 'web', args: ['--pages', '/', '--reuse-build'], figures: /run 1 \/ .*Lighthouse perf \d+/ },
  {
    name: 'instances',
    // The chain in its own process (the faults tier runs it in-process), a warm-up before the first two phases.
    args: ['--users', '2', '--rounds', '1', '--between', '20', '--warmup', '1', '--chain-process'],
    figures:
      /one instance: \d+ requests[\s\S]*local chain [\d.]+[\s\S]*two instances: \d+ requests[\s\S]*under faults: \d+ requests/,
    testDatabase: true,
  },
  { name: 'http', args: ['--duration', '1', '--connections', '2', '--users', '2'], figures: TABLE },
  { name: 'deposit', args: ['--deposits', '1'], figures: TABLE },
  {
    name: 'live',
    args: ['--clients', '3', '--seconds', '1', '--idle', '10'],
    figures:
      /^(?=[\s\S]*idle: .* per connection)(?=[\s\S]*one instance .* p99 [\d.]+ ms)(?=[\s\S]*two instances .* p99)/,
  },
  {
    name: 'trade',
    args: ['--engine-seconds', '0.2', '--duration', '1', '--workers', '2', '--users', '20'],
    figures: TABLE,
  },
  { name: 'settlement', args: ['--users', '1000', '--batch', '400'], figures: TABLE },
  { name: 'ledger', args: ['--duration', '1', '--workers', '2', '--users', '20', '--scale', '1'], figures: TABLE },
  {
    name: 'team',
    args: ['--users', '1000', '--chain', '50', '--directs', '5', '--samples', '10', '--writes', '2'],
    figures: TABLE,
  },
  { name: 'proof', args: ['--users', '1000', '--small', '500', '--proofs', '10'], figures: TABLE },
]

const selected = values.only ? BENCHES.filter((b) => values.only?.split(',').includes(b.name)) : BENCHES
const root = path.resolve(import.meta.dirname, '..')
const tsx = path.join(root, 'node_modules/.bin/tsx')

function run(bench: Bench, env: NodeJS.ProcessEnv) {
  const child = spawn(tsx, [`bench/${bench.name}/run.ts`, ...bench.args], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout.on('data', (chunk) => {
    output += chunk
  })
  child.stderr.on('data', (chunk) => {
    output += chunk
  })
  return new Promise<{ code: number | null; output: string }>((resolve) =>
    child.on('close', (code) => resolve({ code, output })),
  )
}

const cluster = (await startPostgres()) as BenchCluster
// bench/instances starts its server processes from one bundle (TEST_SERVER_BUNDLE, inherited; alone it builds its
// own), as the faults tier does, instead of through tsx at every start.
const bundle = await buildServerBundle()
const shared = JSON.stringify({ url: cluster.url, port: cluster.port, binDir: cluster.binDir })
type Result = { bench: string; ok: boolean; seconds: number; problem?: string }
const results: Result[] = []
const started = Date.now()
/** Runs one bench and prints its line (with its output when it failed) as soon as it ended. */
async function smoke(bench: Bench): Promise<Result> {
  const at = Date.now()
  const { code, output } = await run(bench, {
    BENCH_POSTGRES: shared,
    ...(bench.testDatabase ? { TEST_DATABASE_URL: cluster.url } : {}),
  })
  const problem = code !== 0 ? `exited with ${code}` : bench.figures.test(output) ? undefined : 'printed no figures'
  const seconds = Number(((Date.now() - at) / 1000).toFixed(1))
  console.log(`${problem ? 'FAIL' : 'ok  '}  bench:${bench.name} (${seconds} s)${problem ? `: ${problem}` : ''}`)
  if (problem) console.log(output.replace(/^/gm, '      '))
  return { bench: bench.name, ok: !problem, seconds, ...(problem ? { problem } : {}) }
}
try {
  const queue = [...selected]
  const lane = async () => {
    for (let bench = queue.shift(); bench; bench = queue.shift()) results.push(await smoke(bench))
  }
  await Promise.all(Array.from({ length: Math.max(1, Number(values.jobs)) }, lane))
} finally {
  bundle.remove()
  cluster.stop()
}
const failed = results.filter((r) => !r.ok).length
console.log(
  `bench:smoke — ${results.length - failed} of ${results.length} benches ran and printed their figures in ` +
    `${((Date.now() - started) / 1000).toFixed(1)} s`,
)
if (values.report)
  fs.writeFileSync(values.report, JSON.stringify({ passed: results.length - failed, failed, results }, null, 2))
process.exit(failed === 0 && results.length > 0 ? 0 : 1)
