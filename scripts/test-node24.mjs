// `npm run test:node24`: the unit and API tiers (PGlite) on Node 24, the next LTS line, fetched from the npm registry's
// `node` package like Node 22 (scripts/node.mjs). Not part of `npm test`: both tiers again would take it past its
// ten minutes on two cores (docs/benchmarks.md, "npm test"). Ends with the same summary line as `npm test`.
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { bin, log, root, run } from './lib.mjs'
import { envWithNode, nodeBinDir, runOnSupportedNode } from './node.mjs'

await runOnSupportedNode() // npm ci's dependencies were installed by a supported Node; run them the same way
const node24 = nodeBinDir(24)
const env = envWithNode(node24)
const reports = path.join(root, '.tmp', 'reports-node24')
fs.rmSync(reports, { recursive: true, force: true })
fs.mkdirSync(reports, { recursive: true })
log(
  `the unit and API tiers on Node ${spawnSync(path.join(node24, 'node'), ['--version'], { encoding: 'utf8' }).stdout.trim()}`,
)
const totals = { passed: 0, failed: 0, skipped: 0 }
let ok = true
for (const project of ['unit', 'api']) {
  const file = path.join(reports, `${project}.json`)
  const started = Date.now()
  const code = run(
    bin('vitest'),
    ['run', '--project', project, '--reporter=default', '--reporter=json', `--outputFile.json=${file}`],
    { env },
  )
  const result = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : null
  if (result) {
    totals.passed += result.numPassedTests
    totals.failed += result.numFailedTests
    totals.skipped += result.numPendingTests + result.numTodoTests
  }
  ok &&= code === 0 && result !== null && result.numTotalTests > 0
  log(`${project} on Node 24: ${code === 0 ? 'ok' : 'FAIL'} (${Math.round((Date.now() - started) / 1000)}s)`)
}
console.log(`tests: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`)
process.exit(ok && totals.failed === 0 ? 0 : 1)
