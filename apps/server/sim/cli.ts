// npm run sim -- --seed <n> --steps <k> [--faults <profile>] [--database-url <url>]
// npm run sim -- --replay <file>            the command list a failure wrote
// npm run sim -- --ci                       the fixed seeds and a few fresh ones (npm test)
// npm run sim:long                          fresh seeds for an hour (--duration <seconds>)
// Each run ends with one line: sim: seed=<n> steps=<k> faults=<count> trace=<sha256> invariants=ok
// (or FAILED <invariant> at step <i>, after the shrunk command list). docs/simulator.md explains it all.
import { randomInt } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { dropTemplates } from './engine.ts'
import { FaultInjector } from './faults.ts'
import { type RunOptions, type RunResult, replay, runSeed } from './run.ts'
import { Trace } from './trace.ts'

/** The seeds every `npm test` runs (any failure among them ever found stays here), and how many steps each. */
export const CI_SEEDS = [1, 2, 3, 4]
const CI_STEPS = 60
/** Fresh seeds per CI run, printed so that a failure can be run again. */
const CI_FRESH = 2

const { values } = parseArgs({
  options: {
    seed: { type: 'string' },
    steps: { type: 'string', default: '500' },
    faults: { type: 'string', default: 'standard' },
    'database-url': { type: 'string' },
    replay: { type: 'string' },
    ci: { type: 'boolean', default: false },
    duration: { type: 'string' },
    'shrink-seconds': { type: 'string', default: '120' },
    report: { type: 'string' },
    verbose: { type: 'boolean', default: false },
    sql: { type: 'boolean', default: false },
  },
})

if (values.verbose || values.sql) {
  const started = performance.now()
  const echo = (text: string) => console.log(`${((performance.now() - started) / 1000).toFixed(2).padStart(8)} ${text}`)
  Trace.echo = echo
  if (values.sql) FaultInjector.echo = (text) => echo(`      ${text}`)
}

const failures = path.resolve('.tmp/sim')

function line(result: RunResult, faults: string) {
  const head = `sim: seed=${result.seed} steps=${result.steps} faults=${result.faults} trace=${result.trace}`
  if (!result.failure) return `${head} invariants=ok`
  const { failure } = result
  fs.mkdirSync(failures, { recursive: true })
  const file = path.join(failures, `seed-${result.seed}.json`)
  fs.writeFileSync(file, `${JSON.stringify({ seed: result.seed, faults, commands: failure.commands }, null, 1)}\n`)
  console.log(`\n${failure.invariant}: ${failure.detail}\n`)
  console.log('last events of the shrunk run:')
  for (const event of failure.recent.slice(-25)) console.log(`  ${event}`)
  console.log(
    `\nshrunk to ${failure.commands.length} commands (replay: npm run sim -- --replay ${path.relative('.', file)}):`,
  )
  for (const [n, command] of failure.commands.entries()) console.log(`  ${n} ${JSON.stringify(command)}`)
  return `${head} FAILED ${failure.invariant} at step ${failure.step}`
}

async function one(options: RunOptions): Promise<RunResult> {
  const result = await runSeed(options)
  console.log(line(result, options.faults))
  return result
}

async function main() {
  const databaseUrl = values['database-url']
  const shrinkSeconds = Number(values['shrink-seconds'])
  const faults = values.faults as string
  const results: RunResult[] = []
  if (values.replay) {
    const saved = JSON.parse(fs.readFileSync(values.replay, 'utf8')) as { seed: number; faults: string; commands: [] }
    const result = await replay(
      { seed: saved.seed, steps: saved.commands.length, faults: saved.faults, databaseUrl },
      saved.commands,
    )
    console.log(line(result, saved.faults))
    results.push(result)
  } else if (values.ci || values.duration) {
    const until = values.duration ? performance.now() + Number(values.duration) * 1000 : 0
    const seeds = values.ci ? [...CI_SEEDS, ...Array.from({ length: CI_FRESH }, () => randomInt(1e9))] : []
    const steps = values.ci ? CI_STEPS : Number(values.steps)
    if (values.ci) console.log(`sim: seeds ${seeds.join(' ')} (the last ${CI_FRESH} fresh), ${steps} steps each`)
    for (let i = 0; values.ci ? i < seeds.length : performance.now() < until; i++) {
      const seed = values.ci ? (seeds[i] as number) : randomInt(1e9)
      results.push(await one({ seed, steps, faults, databaseUrl, shrinkSeconds }))
    }
  } else {
    const seed = Number(values.seed ?? 1)
    results.push(await one({ seed, steps: Number(values.steps), faults, databaseUrl, shrinkSeconds }))
  }
  if (values.report)
    fs.writeFileSync(
      values.report,
      JSON.stringify({
        passed: results.filter((r) => !r.failure).length,
        failed: results.filter((r) => r.failure).length,
      }),
    )
  await dropTemplates()
  process.exit(results.some((r) => r.failure) ? 1 : 0)
}

main().catch((error) => {
  console.error(error)
  process.exit(1)
})
