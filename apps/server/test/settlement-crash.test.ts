// The settlement survives a power cut: a process settling several days is killed with SIGKILL again and again, after
// committed batches and in the middle of one, then settled to the end. Everything it wrote must equal an uninterrupted
// run on an identical second database.
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { type Database, migrate, openDatabase } from '../src/db/index.ts'
import { DEFAULT_BUSINESS_CONFIG } from '../src/modules/config/defaults.ts'
import { checkInvariants } from '../src/modules/ledger/service.ts'
import { settleThrough } from '../src/modules/settlement/service.ts'
import { processArgs } from './fixtures/server-bundle.ts'
import { PLG_CODE, paymentsFor, seedScenario, settlementState, storeConfig, UNGUARDED } from './fixtures/settlement.ts'
import { addOffChainAssets, createPostgresDatabase, dbKind } from './helpers.ts'

const ROOT = path.resolve(import.meta.dirname, '../../..')
const DAY = '2025-06-20'
const BATCH = 5

interface Target {
  env: Record<string, string>
  open: () => Promise<Database>
  drop: () => Promise<void>
}

/**
 * A fresh database the child process can open too: PostgreSQL (TEST_DATABASE_URL) or a PGlite directory; a copy of the
 * run's migrated template when there is one (global-setup.ts).
 */
async function target(): Promise<Target> {
  const adminUrl = process.env.TEST_DATABASE_URL
  if (adminUrl) {
    // (force): the killed child's connections may linger until PostgreSQL notices they are gone.
    const template = process.env.TEST_DATABASE_TEMPLATE
    const { url, drop } = await createPostgresDatabase(adminUrl, { force: true, template })
    return { env: { DATABASE_URL: url }, open: () => openDatabase({ url }), drop }
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'solpledge-settle-'))
  const data = path.join(dir, 'pglite')
  const template = process.env.TEST_PGLITE_TEMPLATE_DIR
  if (template) fs.cpSync(template, data, { recursive: true })
  return {
    env: { PGLITE_DIR: data },
    open: () => openDatabase({ dir: data }),
    drop: async () => fs.rmSync(dir, { recursive: true, force: true }),
  }
}

/** Opens, uses and closes (PGlite allows one process at a time on a directory). */
async function using<T>(t: Target, work: (db: Database) => Promise<T>): Promise<T> {
  const db = await t.open()
  try {
    return await work(db)
  } finally {
    await db.destroy()
  }
}

interface ChildRun {
  batches: number
  signal: NodeJS.Signals | null
  code: number | null
  output: string
}

/**
 * Runs the settling child; once `killAfter` batches are reported (a number), or a batch of the phase `killAfter` (a
 * name), it is killed from outside while the next batch runs.
 */
function runChild(t: Target, env: Record<string, string>, killAfter?: number | string): Promise<ChildRun> {
  const child = spawn(process.execPath, processArgs('settle-child'), {
    cwd: ROOT,
    env: { ...process.env, ...t.env, SETTLE_DAY: DAY, SETTLE_BATCH: String(BATCH), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  let batches = 0
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString()
    const lines = output.split('\n').filter((line) => line.startsWith('batch '))
    batches = lines.length
    const due =
      typeof killAfter === 'number' ? batches >= killAfter : lines.some((line) => line.endsWith(` ${killAfter}`))
    // A few milliseconds into the next batch's transaction.
    if (killAfter !== undefined && due) setTimeout(() => child.kill('SIGKILL'), 3)
  })
  child.stderr.on('data', (chunk: Buffer) => {
    output += chunk.toString()
  })
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve({ batches, signal, code, output })))
}

describe(`settlement crash safety (${dbKind})`, () => {
  it('SIGKILL after committed batches and mid-batch: resumed totals equal an uninterrupted run', async () => {
    const crashed = await target()
    const reference = await target()
    try {
      for (const t of [crashed, reference])
        await using(t, async (db) => {
          await migrate(db) // (nothing to do on a copy of the template)
          await addOffChainAssets(db)
          // The circuit breaker would hold the scenario's growing days: off here (its own tests: economics.test.ts).
          await storeConfig(db, { ...DEFAULT_BUSINESS_CONFIG, ...UNGUARDED })
          await seedScenario(db, { seed: 11, users: 60, day: DAY, spread: 3 })
        })

      const kills: ChildRun[] = []
      // Killed by its own hook right after its 3rd commit, then from outside in the middle of a batch, then in the
      // middle of a payment batch (where money moves), then by the hook every 40 batches until a run gets to the end.
      kills.push(await runChild(crashed, { SETTLEMENT_CRASH_AFTER_BATCHES: '3' }))
      kills.push(await runChild(crashed, {}, 2))
      kills.push(await runChild(crashed, {}, 'pay'))
      let last: ChildRun
      for (;;) {
        last = await runChild(crashed, { SETTLEMENT_CRASH_AFTER_BATCHES: '40' })
        if (last.signal === null && last.code === 0) break
        kills.push(last)
        expect(kills.length, last.output).toBeLessThan(30)
      }
      for (const kill of kills) expect(kill.signal, kill.output).toBe('SIGKILL')
      expect(kills[0]?.batches).toBe(3)
      expect(kills.length).toBeGreaterThanOrEqual(3)
      // Some kill came in the payment phase, where money moves (its last committed batch was a 'pay' batch).
      const lastPhase = (run: ChildRun) =>
        run.output
          .match(/^batch \S+ (\w+)$/gm)
          ?.at(-1)
          ?.split(' ')[2]
      expect(kills.map(lastPhase)).toContain('pay')
      expect(last.output).toMatch(/settled .*2025-06-20/)

      const expected = await using(reference, async (db) => {
        await settleThrough(db, DAY, { product: PLG_CODE, batchSize: BATCH })
        return settlementState(db)
      })
      const actual = await using(crashed, async (db) => {
        expect(await checkInvariants(db)).toEqual([])
        return settlementState(db)
      })
      expect(actual.outputs.length).toBeGreaterThan(100)
      expect(actual.transfers).toEqual(paymentsFor(actual.outputs))
      expect(actual).toEqual(expected)
    } finally {
      await crashed.drop()
      await reference.drop()
    }
  }, 240_000)
})
