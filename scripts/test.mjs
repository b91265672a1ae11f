// `npm test`: everything a fresh clone needs, then every tier of tests, ending with one summary line of counts.
// Stages: install → typecheck → lint → alerting rules (promtool) → unit → API on PGlite → the simulator's seeds → API on
// PostgreSQL (throwaway cluster) → several instances under faults → production build (server and web) → the compiled
// server started on production dependencies → e2e in Debian's Chromium. A failing stage does not stop the later ones; the exit code says whether all passed.
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { bin, ensureDependencies, log, root, run } from './lib.mjs'
import { startPostgres } from './postgres.mjs'

const reports = path.join(root, '.tmp', 'reports')
fs.rmSync(reports, { recursive: true, force: true })
fs.mkdirSync(reports, { recursive: true })

const totals = { passed: 0, failed: 0, skipped: 0 }
const stages = []

async function stage(name, fn) {
  const started = Date.now()
  log(`── ${name}`)
  let ok
  try {
    ok = await fn()
  } catch (error) {
    console.error(error)
    ok = false
  }
  stages.push({ name, ok, seconds: Math.round((Date.now() - started) / 1000) })
}

function vitest(name, project, env = {}) {
  const file = path.join(reports, `${name}.json`)
  const code = run(
    bin('vitest'),
    ['run', '--project', project, '--reporter=default', '--reporter=json', `--outputFile.json=${file}`],
    {
      env: { ...process.env, ...env },
    },
  )
  const result = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : null
  if (result) {
    totals.passed += result.numPassedTests
    totals.failed += result.numFailedTests
    totals.skipped += result.numPendingTests + result.numTodoTests
  }
  return code === 0 && result !== null && result.numTotalTests > 0
}

/** Debian's Chromium for the journeys, and CJK fonts so zh/ja/ko screenshots show text, not boxes. */
function ensureChromium() {
  const chromium = '/usr/bin/chromium'
  const cjkFonts = '/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc'
  const missing = [
    [chromium, 'chromium'],
    [cjkFonts, 'fonts-noto-cjk'],
  ].filter(([file]) => !fs.existsSync(file))
  if (missing.length === 0) return
  const packages = missing.map(([, name]) => name)
  if (process.getuid?.() !== 0) {
    if (!fs.existsSync(chromium)) throw new Error('Chromium is missing: apt-get install -y chromium')
    return log(`without root, not installing ${packages.join(' ')}`)
  }
  log(`installing ${packages.join(' ')} (apt-get)`)
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }
  spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env })
  const res = spawnSync('apt-get', ['install', '-y', '-qq', ...packages], { stdio: 'inherit', env })
  if (res.status !== 0 && !fs.existsSync(chromium)) throw new Error('apt-get install chromium failed')
}

/**
 * Debian's promtool (package prometheus) for the alerting rules: installed like Chromium when missing and root. Returns
 * its path, or null with a notice when it cannot be had: then only the promtool check is left out.
 */
function ensurePromtool() {
  const promtool = '/usr/bin/promtool'
  if (fs.existsSync(promtool)) return promtool
  if (process.getuid?.() === 0) {
    log('installing prometheus for promtool (apt-get)')
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }
    spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env })
    spawnSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', 'prometheus'], { stdio: 'inherit', env })
    if (fs.existsSync(promtool)) return promtool
  }
  log('NOTICE: promtool is not installed and could not be (apt-get install prometheus): alerting rules not checked')
  return null
}

/** The simulator's fixed seeds and a few fresh ones (printed), each run's counted as a test (docs/simulator.md). */
function simulator() {
  const file = path.join(reports, 'sim.json')
  const code = run(bin('tsx'), ['apps/server/sim/cli.ts', '--ci', '--report', file])
  const result = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : null
  if (result) {
    totals.passed += result.passed
    totals.failed += result.failed
  }
  return code === 0 && result !== null && result.passed > 0
}

function playwright() {
  const file = path.join(reports, 'e2e.json')
  const code = run(bin('playwright'), ['test', '-c', 'e2e/playwright.config.ts'], {
    env: { ...process.env, PLAYWRIGHT_JSON_OUTPUT_NAME: file },
  })
  const result = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : null
  if (result) {
    const s = result.stats
    totals.passed += s.expected + s.flaky
    totals.failed += s.unexpected
    totals.skipped += s.skipped
  }
  return code === 0 && result !== null && result.stats.expected > 0
}

const started = Date.now()
ensureDependencies()
await stage('typecheck', () => run('npm', ['run', '--silent', 'typecheck']) === 0)
await stage('lint', () => run('npm', ['run', '--silent', 'lint']) === 0)
await stage('alerting rules (promtool)', () => {
  const promtool = ensurePromtool()
  if (!promtool) return true
  return (
    run(promtool, ['check', 'rules', 'docs/operations/alerts.yml']) === 0 &&
    run(promtool, ['test', 'rules', 'docs/operations/alerts.test.yml']) === 0
  )
})
await stage('unit tests', () => vitest('unit', 'unit'))
await stage('API tests on PGlite', () => vitest('api-pglite', 'api'))
// Seeded runs of the whole money system under database, RPC and crash faults, every invariant checked after every step
// (apps/server/sim): the fixed seeds, then two fresh ones whose numbers it prints.
await stage('simulator (seeded runs under faults)', simulator)
await stage('API tests on PostgreSQL', async () => {
  const pg = await startPostgres()
  try {
    return vitest('api-postgres', 'api', { TEST_DATABASE_URL: pg.url })
  } finally {
    pg.stop()
  }
})
// Two server processes on one PostgreSQL behind a proxy, under load: one SIGKILLed and restarted, every database
// connection terminated (apps/server/test/faults; a throwaway cluster of its own unless TEST_DATABASE_URL is set).
await stage('several instances under faults', () => vitest('faults', 'faults'))
// `npm run build`: the contract and the server compiled to JavaScript, and the web app; then the compiled server is
// started as `npm run serve` starts it (apps/server/test/production).
await stage('production build', () => run('npm', ['run', '--silent', 'build']) === 0)
await stage('production start', () => vitest('production', 'production'))
await stage('e2e journeys in Chromium', () => {
  ensureChromium()
  return playwright()
})

console.log('')
for (const s of stages) console.log(`${s.ok ? 'ok  ' : 'FAIL'}  ${s.name} (${s.seconds}s)`)
const allOk = stages.every((s) => s.ok)
console.log(`total time ${Math.round((Date.now() - started) / 1000)}s`)
console.log(`tests: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`)
process.exit(allOk && totals.failed === 0 ? 0 : 1)
