// The simulated clock. The server reads the time from two places: JavaScript's Date (new Date(), Date.now()) and the
// database's now() (column defaults, interval conditions). Rather than threading a clock through every module, the
// simulator owns both in its own process: `installClock` replaces the global Date of this process by one whose "now"
// is the simulated time, and the simulator's database answers now() and clock_timestamp() from the same time (a
// one-row table read by functions that shadow pg_catalog's on the search_path, see CLOCK_SQL). Production code never
// imports this file; timers (setTimeout) stay real: they only pace retries, never decide what happens.

/** The simulated time starts here: a Monday, an hour after the demo settlement hour (00:00 UTC). */
export const START_MS = Date.UTC(2031, 2, 3, 1, 0, 0)

const RealDate = Date

/** The current simulated time, in ms since the epoch. */
let nowMs = START_MS

/** A Date whose argument-less construction and Date.now() give the simulated time. */
class SimDate extends RealDate {
  constructor(...args: ConstructorParameters<DateConstructor> | []) {
    if (args.length === 0) super(nowMs)
    else super(...(args as ConstructorParameters<DateConstructor>))
  }
  static override now() {
    return nowMs
  }
  // A Date made before the swap (or by code that kept the original) is still a Date.
  static override [Symbol.hasInstance](value: unknown) {
    return value instanceof RealDate
  }
}

let installed = false

/** Makes this process's Date the simulated clock (idempotent); `at` sets the time. */
export function installClock(at = START_MS) {
  nowMs = at
  if (installed) return
  installed = true
  globalThis.Date = SimDate as unknown as DateConstructor
}

export const clockNow = () => nowMs

/** Moves the simulated time forward by `ms` (never back). */
export function advanceClock(ms: number) {
  if (!Number.isInteger(ms) || ms < 0) throw new Error(`the clock only moves forward by whole ms, not ${ms}`)
  nowMs += ms
}

/**
 * The database side, run before the migrations so that the columns' `default now()` bind to it: a schema `sim` with
 * the clock row and now()/clock_timestamp() reading it. `search_path` puts `sim` before pg_catalog, which PostgreSQL
 * then searches in that order for the unqualified names the server writes.
 */
export const CLOCK_SQL = (at: number) => [
  'create schema sim',
  'create table sim.clock (now timestamptz not null)',
  `insert into sim.clock values ('${new RealDate(at).toISOString()}')`,
  `create function sim.now() returns timestamptz language sql stable as 'select now from sim.clock'`,
  `create function sim.clock_timestamp() returns timestamptz language sql volatile as 'select now from sim.clock'`,
]

/** The search_path that makes the unqualified now() the simulated one. */
export const SEARCH_PATH = 'public, sim, pg_catalog'

/** Sets the database's clock row to the simulated time. */
export const clockUpdate = () => ({
  sql: 'update sim.clock set now = $1',
  params: [new RealDate(nowMs).toISOString()],
})
