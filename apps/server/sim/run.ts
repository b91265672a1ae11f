// One seeded run: fast-check draws the steps (commands and their faults) from the seed and runs them as a model-based
// run against a fresh world, checking the invariants after every step; a failure is shrunk to a short command list.
import fc from 'fast-check'
import { Clients, isFinal } from './client.ts'
import { execute, type Spec, spec as specArbitrary } from './commands.ts'
import { PROFILES } from './faults.ts'
import { checkAll, checkExactlyOnce } from './invariants.ts'
import { Trace } from './trace.ts'
import { Violation } from './violation.ts'
import { World } from './world.ts'

export interface RunOptions {
  seed: number
  steps: number
  /** A key of PROFILES, or a comma-separated list of fault classes. */
  faults: string
  databaseUrl?: string | undefined
  /** How long shrinking a failure may take. */
  shrinkSeconds?: number
}

export interface Failure {
  invariant: string
  detail: string
  /** The step of the shrunk list at which it failed (its length when it failed in the final drain). */
  step: number
  /** The shrunk command list: run it again with --replay. */
  commands: Spec[]
  /** The last lines of the shrunk run's trace. */
  recent: string[]
}

export interface RunResult {
  seed: number
  steps: number
  faults: number
  trace: string
  failure?: Failure | undefined
}

export function faultClasses(profile: string) {
  const classes = PROFILES[profile] ?? profile.split(',')
  for (const c of classes)
    if (!['db', 'rpc', 'crash', 'answer'].includes(c))
      throw new Error(
        `--faults ${profile}: a profile (${Object.keys(PROFILES).join(', ')}) or classes db,rpc,crash,answer`,
      )
  return new Set(classes as ('db' | 'rpc' | 'crash' | 'answer')[])
}

/** A failure as it left a run: the invariant, at which step, and what the trace said last. */
class StepFailure extends Error {
  constructor(
    readonly violation: Violation,
    readonly step: number,
    readonly recent: string[],
  ) {
    super(`${violation.message} (step ${step})`)
  }
}

/** The steps of one run against one world. */
class Run {
  faults = 0
  private constructor(
    readonly world: World,
    readonly clients: Clients,
    readonly trace: Trace,
  ) {}

  static async start(options: RunOptions) {
    const world = await World.create({
      seed: options.seed,
      classes: faultClasses(options.faults),
      databaseUrl: options.databaseUrl,
    })
    const trace = new Trace()
    const clients = new Clients(world, trace)
    await clients.setUp()
    return new Run(world, clients, trace)
  }

  /** Runs one command with its faults, restarts a crashed process, lets 2 s pass, checks every invariant. */
  step(n: number, s: Spec) {
    const { faults } = s
    this.trace.begin(n, JSON.stringify(s))
    return this.guarded(n, async () => {
      // A double tap's copies run at once: faults would strike them in whatever order they interleave.
      this.world.beginStep(s.kind === 'double' ? {} : faults)
      await execute(s, { world: this.world, clients: this.clients, trace: this.trace })
      for (const fired of this.world.faults.fired) this.trace.event(`fault: ${fired}`)
      this.faults += this.world.faults.fired.length + (s.kind === 'crash' ? 1 : 0)
      this.world.beginStep({})
      if (this.world.crashed) {
        await this.world.restart()
        this.trace.event(`crashed; restarted as incarnation ${this.world.incarnation.number}`)
      }
      await this.world.advance(2000)
      await checkAll(this.world, this.clients, n % 5 === 4)
    })
  }

  /**
   * After the last step, without faults: every action without an answer (that its client has not given up, see
   * RETRY_WINDOW_MS) is sent again until it has one, the jobs run until every withdrawal is settled and every paid
   * intent credited or expired; then everything is checked once more, now that each action's effect must be there
   * exactly once.
   */
  finish(n: number) {
    this.trace.begin(n, 'drain')
    return this.guarded(n, async () => {
      this.world.beginStep({})
      const open = () => this.clients.actions.filter((a) => !isFinal(a) && this.clients.retryable(a))
      for (let round = 0; round < 3; round++) for (const action of open()) await this.clients.send(action)
      for (let round = 0; round < 40; round++) {
        await this.world.job('withdrawal-sender')
        await this.world.job('intent-watcher')
        const unsettled = await this.world.engine.observer
          .selectFrom('withdrawals')
          .select('id')
          .where('status', 'in', ['pending', 'sent'])
          .execute()
        if (unsettled.length === 0 && round > 0) break
        await this.world.advance(60_000)
      }
      await this.world.advance(31 * 60_000)
      await this.world.job('intent-watcher')
      await checkAll(this.world, this.clients)
      await checkExactlyOnce(this.world, this.clients, true)
      if (open().length > 0) throw new Violation('every call is answered', `${open().length} actions got no answer`)
    })
  }

  /** `work` as step `n`: any failure, or STEP_LIMIT_MS of wall clock without an end, fails the step. */
  private async guarded(n: number, work: () => Promise<void>) {
    let timer: NodeJS.Timeout | undefined
    const limit = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Violation('every step ends', `still running after ${STEP_LIMIT_MS / 1000} s`)),
        STEP_LIMIT_MS,
      )
    })
    try {
      await Promise.race([work(), limit])
    } catch (error) {
      throw new StepFailure(asViolation(error), n, [...this.trace.recent])
    } finally {
      clearTimeout(timer)
    }
  }

  close() {
    return this.world.close()
  }
}

/** A step that takes longer than this (wall clock) is stuck: a call that never answers, a loop that never ends. */
const STEP_LIMIT_MS = 180_000

const asViolation = (error: unknown) =>
  error instanceof Violation ? error : new Violation('simulator error', (error as Error)?.stack ?? String(error))

/** A step of the model-based run (fc.asyncModelRun): its command record, and whether it ran. */
class SimCommand implements fc.AsyncCommand<object, { run: Run; next: number }> {
  hasRan = false
  constructor(readonly spec: Spec) {}
  check() {
    return true
  }
  async run(_model: object, real: { run: Run; next: number }) {
    this.hasRan = true
    await real.run.step(real.next++, this.spec)
  }
  toString() {
    return JSON.stringify(this.spec)
  }
}

type Item = fc.Value<Spec>

/**
 * Exactly `length` commands (fc.commands draws its own length; a run of --steps k runs k), shrunk as fc.commands
 * shrinks: to the commands that ran, then without a block of them (halves, quarters, … single ones), then each command
 * simpler (its own arbitrary's shrink: fewer faults, smaller numbers).
 */
class ExactCommands extends fc.Arbitrary<SimCommand[]> {
  constructor(
    private readonly item: fc.Arbitrary<Spec>,
    private readonly length: number,
  ) {
    super()
  }

  private listOf(items: Item[]): fc.Value<SimCommand[]> {
    return new fc.Value(
      items.map((i) => new SimCommand(i.value_)),
      items,
    )
  }

  override generate(random: fc.Random, bias: number | undefined): fc.Value<SimCommand[]> {
    return this.listOf(Array.from({ length: this.length }, () => this.item.generate(random, bias)))
  }

  override canShrinkWithoutContext(_value: unknown): _value is SimCommand[] {
    return false
  }

  override shrink(value: SimCommand[], context: unknown): fc.Stream<fc.Value<SimCommand[]>> {
    if (!context) return fc.Stream.nil()
    const all = context as Item[]
    const ran = value.filter((c) => c.hasRan).length
    const items = all.slice(0, Math.max(ran, 1))
    const self = this
    function* candidates(): Generator<fc.Value<SimCommand[]>> {
      if (items.length < all.length) yield self.listOf(items)
      for (let size = items.length >> 1; size >= 1; size >>= 1)
        for (let start = 0; start + size <= items.length; start += size)
          yield self.listOf([...items.slice(0, start), ...items.slice(start + size)])
      for (const [i, item] of items.entries())
        for (const simpler of self.item.shrink(item.value_, item.context))
          yield self.listOf([...items.slice(0, i), simpler, ...items.slice(i + 1)])
    }
    return new fc.Stream(candidates())
  }
}

/** Runs `commands` once (a replay): no drawing, no shrinking. */
export async function replay(options: RunOptions, commands: Spec[]): Promise<RunResult> {
  const run = await Run.start(options)
  try {
    for (const [n, s] of commands.entries()) await run.step(n, s)
    await run.finish(commands.length)
    return { seed: options.seed, steps: commands.length, faults: run.faults, trace: run.trace.digest() }
  } catch (error) {
    const failure = error as StepFailure
    return {
      seed: options.seed,
      steps: commands.length,
      faults: run.faults,
      trace: run.trace.digest(),
      failure: {
        invariant: failure.violation?.invariant ?? 'simulator error',
        detail: failure.violation?.detail ?? String(error),
        step: failure.step,
        commands,
        recent: failure.recent ?? [],
      },
    }
  } finally {
    await run.close()
  }
}

/** Runs seed `options.seed`: `options.steps` steps drawn by fast-check, shrunk on failure. */
export async function runSeed(options: RunOptions): Promise<RunResult> {
  let first: { faults: number; trace: string } | undefined
  let deadline = Number.POSITIVE_INFINITY
  const property = fc.asyncProperty(new ExactCommands(specArbitrary, options.steps), async (commands) => {
    // Out of time for shrinking: the remaining candidates count as passing, and the smallest failure so far stands.
    if (performance.now() > deadline) return true
    const run = await Run.start(options)
    try {
      await fc.asyncModelRun(() => ({ model: {}, real: { run, next: 0 } }), commands)
      await run.finish(commands.length)
    } finally {
      first ??= { faults: run.faults, trace: run.trace.digest() }
      // performance.now(): the wall clock (Date is the simulated one).
      if (deadline === Number.POSITIVE_INFINITY) deadline = performance.now() + (options.shrinkSeconds ?? 120) * 1000
      await run.close()
    }
  })
  const details = await fc.check(property, { seed: options.seed, numRuns: 1 })
  const result = { seed: options.seed, steps: options.steps, faults: first?.faults ?? 0, trace: first?.trace ?? '' }
  if (!details.failed) return result
  const error = details.errorInstance as StepFailure | undefined
  const commands = (details.counterexample?.[0] ?? []).map((c) => c.spec)
  return {
    ...result,
    failure: {
      invariant: error?.violation?.invariant ?? 'simulator error',
      detail: error?.violation?.detail ?? String(details.errorInstance),
      step: error?.step ?? -1,
      commands,
      recent: error?.recent ?? [],
    },
  }
}
