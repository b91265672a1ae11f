// `npm test`: everything a fresh clone needs, then every tier of tests, ending with one summary line of counts.
// Stages: install → typecheck, lint, alerting rules (promtool), deploy/ units (systemd-analyze) beside the simulator's
// seeds and then the unit tiers → API on PGlite → API on PostgreSQL (throwaway cluster) → several instances under
// faults beside the production build (server and web) and every benchmark at a tiny size → e2e in Debian's Chromium
// beside a server-only production install started with its operator commands run. Stages run side by side where one
// would leave a core idle (tsc and the simulator use one core each) or spend its time waiting (on processes, the disk);
// the whole run keeps both cores busy, so a shorter run needs less work, not another order (docs/benchmarks.md). A
// lane's output is kept in .tmp/reports/<stage>.log and printed whole when it ends. A failing stage does not stop the
// later ones; the exit code says whether all passed. On a Node older than 22.12 it first runs itself again under
// Node 22 (scripts/node.mjs).
import { spawn, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { stripVTControlCharacters } from 'node:util'
import { bin, debianTool, ensureDependencies, log, root } from './lib.mjs'
import { runOnSupportedNode } from './node.mjs'
import { startPostgres } from './postgres.mjs'

// On a Node older than 22.12 this runs again under Node 22 from the npm registry (scripts/node.mjs), before npm ci.
await runOnSupportedNode()

const reports = path.join(root, '.tmp', 'reports')
fs.rmSync(reports, { recursive: true, force: true })
fs.mkdirSync(reports, { recursive: true })

const totals = { passed: 0, failed: 0, skipped: 0 }
const stages = []
/** Each failing test with the first line of its error, repeated in the summary: a CI log often shows only its end. */
const failures = []
const firstLine = (text = '') =>
  stripVTControlCharacters(text)
    .split('\n')
    .find((line) => line.trim())
    ?.trim()
    .slice(0, 300) ?? ''

/**
 * Runs a command to completion and resolves its exit code. `out` is where its output goes: the terminal, or the log
 * file of a stage running beside another.
 */
function exec(command, args, { env = process.env, out = 'inherit' } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: root, env, stdio: ['ignore', out, out] })
    child.on('error', reject)
    child.on('exit', (code) => resolve(code ?? 1))
  })
}

/**
 * A stage: `fn(out)` resolves whether it passed. With `{ lane: true }` its output goes to .tmp/reports/<name>.log
 * (printed once it ended) so that stages running at the same time do not interleave.
 */
async function stage(name, fn, { lane = false } = {}) {
  const started = Date.now()
  const logFile = path.join(reports, `${name.replace(/\W+/g, '-')}.log`)
  const out = lane ? fs.openSync(logFile, 'w') : 'inherit'
  if (!lane) log(`── ${name}`)
  let ok
  try {
    ok = await fn(out)
  } catch (error) {
    if (lane) fs.writeSync(out, `${error?.stack ?? error}\n`)
    else console.error(error)
    ok = false
  }
  if (lane) {
    fs.closeSync(out)
    log(`── ${name} (ran beside another stage)`)
    process.stdout.write(fs.readFileSync(logFile, 'utf8'))
  }
  stages.push({ name, ok, seconds: Math.round((Date.now() - started) / 1000) })
}

/** Stages in a row, as one lane beside others (`together`). */
const inRow =
  (...list) =>
  async () => {
    for (const [name, fn] of list) await stage(name, fn, { lane: true })
  }

/** Lanes at the same time; resolves when all ended. */
const together = (...lanes) => Promise.all(lanes.map((lane) => lane()))

/** Runs the vitest project(s) `projects` (a name or a list of names). */
async function vitest(name, projects, env = {}, out = 'inherit') {
  const file = path.join(reports, `${name}.json`)
  const code = await exec(
    bin('vitest'),
    [
      'run',
      ...[projects].flat().flatMap((project) => ['--project', project]),
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${file}`,
    ],
    { env: { ...process.env, ...env }, out },
  )
  const result = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : null
  if (result) {
    totals.passed += result.numPassedTests
    totals.failed += result.numFailedTests
    totals.skipped += result.numPendingTests + result.numTodoTests
    for (const file of result.testResults)
      for (const test of file.assertionResults)
        if (test.status === 'failed')
          failures.push(
            `${name}: ${path.relative(root, file.name)} › ${test.fullName}\n      ${firstLine(test.failureMessages[0])}`,
          )
  }
  return code === 0 && result !== null && result.numTotalTests > 0
}

/**
 * Debian's Chromium, and CJK fonts so zh/ja/ko screenshots show text, not boxes; then its headless shell, the
 * journeys' lighter browser (e2e/chromium.ts), which they do without when it cannot be installed.
 */
function ensureChromium() {
  const chromium = '/usr/bin/chromium'
  const wanted = [
    [
      [chromium, 'chromium'],
      ['/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc', 'fonts-noto-cjk'],
    ],
    [['/usr/bin/chromium-headless-shell', 'chromium-headless-shell']],
  ]
  const root = process.getuid?.() === 0
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }
  let updated = false
  for (const group of wanted) {
    const packages = group.filter(([file]) => !fs.existsSync(file)).map(([, name]) => name)
    if (packages.length === 0) continue
    if (!root) {
      log(`without root, not installing ${packages.join(' ')}`)
      continue
    }
    log(`installing ${packages.join(' ')} (apt-get)`)
    if (!updated) spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env })
    updated = true
    spawnSync('apt-get', ['install', '-y', '-qq', ...packages], { stdio: 'inherit', env })
  }
  if (!fs.existsSync(chromium)) throw new Error('Chromium is missing: apt-get install -y chromium')
}

/**
 * Debian's promtool (package prometheus) for the alerting rules: installed like Chromium when missing and root. Returns
 * its path, or null with a notice when it cannot be had: then only the promtool check is left out.
 */
function ensurePromtool() {
  const promtool = debianTool('/usr/bin/promtool', 'prometheus')
  if (!promtool)
    log('NOTICE: promtool is not installed and could not be (apt-get install prometheus): alerting rules not checked')
  return promtool
}

/**
 * Debian's systemd-analyze (package systemd; it verifies unit files without a running systemd), installed when missing
 * and root, as promtool: the deploy/ units are then checked on every machine that runs the tests as root.
 */
function ensureSystemdAnalyze() {
  const analyze = debianTool('/usr/bin/systemd-analyze', 'systemd')
  if (!analyze)
    log(
      'NOTICE: systemd-analyze is not installed and could not be (apt-get install systemd): deploy/ units not verified',
    )
  return analyze
}

/** `systemd-analyze verify` of the deploy/ units; any output fails (systemd only warns about a wrong value). */
function verifyUnits(analyze, out) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'solpledge-units-'))
  try {
    const units = fs.readdirSync(path.join(root, 'deploy')).filter((f) => /\.(service|timer)$/.test(f))
    for (const unit of units)
      fs.copyFileSync(path.join(root, 'deploy', unit), path.join(dir, unit.replace('@.', '@a.')))
    const files = units.map((unit) => path.join(dir, unit.replace('@.', '@a.')))
    const result = spawnSync(analyze, ['verify', '--man=no', ...files], { cwd: dir, encoding: 'utf8' })
    fs.writeSync(out, result.stdout + result.stderr)
    return result.status === 0 && `${result.stdout}${result.stderr}`.trim() === '' && units.length >= 3
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
}

/** The simulator's fixed seeds and a few fresh ones (printed), each run's counted as a test (docs/simulator.md). */
async function simulator(out) {
  const file = path.join(reports, 'sim.json')
  const code = await exec(bin('tsx'), ['apps/server/sim/cli.ts', '--ci', '--report', file], { out })
  const result = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : null
  if (result) {
    totals.passed += result.passed
    totals.failed += result.failed
  }
  return code === 0 && result !== null && result.passed > 0
}

/** Every benchmark at a tiny size (bench/smoke.ts): each must run to the end and print its figures; each is a test. */
async function benchSmoke(out) {
  const file = path.join(reports, 'bench-smoke.json')
  const code = await exec(bin('tsx'), ['bench/smoke.ts', '--report', file], { out })
  const result = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : null
  if (result) {
    totals.passed += result.passed
    totals.failed += result.failed
    for (const bench of result.results)
      if (!bench.ok) failures.push(`bench smoke: bench:${bench.bench}\n      ${bench.problem}`)
  }
  return code === 0 && result !== null && result.passed > 0
}

async function playwright(out) {
  const file = path.join(reports, 'e2e.json')
  const code = await exec(bin('playwright'), ['test', '-c', 'e2e/playwright.config.ts'], {
    env: { ...process.env, PLAYWRIGHT_JSON_OUTPUT_NAME: file },
    out,
  })
  const result = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : null
  if (result) {
    const s = result.stats
    totals.passed += s.expected + s.flaky
    totals.failed += s.unexpected
    totals.skipped += s.skipped
    const walk = (suite, titles) => {
      for (const spec of suite.specs ?? [])
        for (const test of spec.tests)
          if (test.status === 'unexpected') {
            const error = test.results.at(-1)?.error?.message
            failures.push(`e2e: ${[...titles, spec.title].join(' › ')}\n      ${firstLine(error)}`)
          }
      for (const child of suite.suites ?? []) walk(child, [...titles, child.title])
    }
    for (const suite of result.suites) walk(suite, [suite.title])
  }
  return code === 0 && result !== null && result.stats.expected > 0
}

const started = Date.now()
ensureDependencies()
// Installed first, so that nothing installs while stages run side by side.
const promtool = ensurePromtool()
const analyze = ensureSystemdAnalyze()
const npmRun = async (script, out) => (await exec('npm', ['run', '--silent', script], { out })) === 0
await together(
  inRow(
    ['typecheck', (out) => npmRun('typecheck', out)],
    ['lint', (out) => npmRun('lint', out)],
    [
      'alerting rules (promtool)',
      async (out) =>
        !promtool ||
        ((await exec(promtool, ['check', 'rules', 'docs/operations/alerts.yml'], { out })) === 0 &&
          (await exec(promtool, ['test', 'rules', 'docs/operations/alerts.test.yml'], { out })) === 0),
    ],
    // The deploy/ units as systemd reads them (`systemd-analyze verify`: directives, values, the executable), each
    // template as an instance of it. Without systemd-analyze (and no root to install it) only this check is left out.
    ['deploy files (systemd-analyze verify)', (out) => !analyze || verifyUnits(analyze, out)],
  ),
  // Seeded runs of the whole money system under database, RPC and crash faults, every invariant checked after every
  // step (apps/server/sim): the fixed seeds, then two fresh ones whose numbers it prints. Then the unit tiers, on the
  // core the simulator leaves when it ends before tsc.
  inRow(
    ['simulator (seeded runs under faults)', simulator],
    ['unit tests', (out) => vitest('unit', ['unit', 'unit-web'], {}, out)],
  ),
)
await stage('API tests on PGlite', () => vitest('api-pglite', 'api'))
await stage('API tests on PostgreSQL', async () => {
  const pg = await startPostgres()
  try {
    return await vitest('api-postgres', 'api', { TEST_DATABASE_URL: pg.url })
  } finally {
    pg.stop()
  }
})
// Installed before the lanes start: bench:smoke and the journeys run in Chromium.
ensureChromium()
await together(
  // Two server processes on one PostgreSQL behind a proxy, under load: one SIGKILLed and restarted, every database
  // connection terminated (apps/server/test/faults; a throwaway cluster of its own unless TEST_DATABASE_URL is set).
  inRow(['several instances under faults', (out) => vitest('faults', 'faults', {}, out)]),
  // `npm run build`: the packages and the server compiled to JavaScript, and the web app (the journeys' server serves
  // it); then every benchmark at a tiny size (bench:web measures the web app the build made).
  inRow(['production build', (out) => npmRun('build', out)], ['benchmarks at a tiny size (bench:smoke)', benchSmoke]),
)
// The journeys wait on the chain, the servers and their timers much of their time, so the production install, which
// mostly waits on the disk, runs beside them: a server-only `npm ci --omit=dev --workspace apps/server` where the
// server starts through `npm run serve` and every operator command runs from the build (apps/server/test/production).
await together(
  inRow(['e2e journeys in Chromium', playwright]),
  inRow(['production install and start', (out) => vitest('production', 'production', {}, out)]),
)

console.log('')
if (failures.length > 0) console.log(`failed:\n${failures.map((f) => `  ${f}`).join('\n')}\n`)
for (const s of stages) console.log(`${s.ok ? 'ok  ' : 'FAIL'}  ${s.name} (${s.seconds}s)`)
const allOk = stages.every((s) => s.ok)
console.log(`total time ${Math.round((Date.now() - started) / 1000)}s`)
console.log(`tests: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`)
process.exit(allOk && totals.failed === 0 ? 0 : 1)
