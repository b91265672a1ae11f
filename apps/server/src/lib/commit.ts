// How a call's effects commit (docs/money.md "Idempotent money calls"): in one database transaction that the route
// owns and hands to the service. For a call with an Idempotency-Key the route stores the call's answer in that same
// transaction (lib/route.ts), so the effects and their answer are committed together or not at all.
import type { Transaction } from 'kysely'
import type { Database } from '../db/index.ts'
import type { DB } from '../db/schema.ts'
import type { AppError } from './app-error.ts'

/** The work of a call: its effects, made in `trx`, and the data of its answer. */
export type Work<D> = (trx: Transaction<DB>) => Promise<D>

/**
 * Runs a call's work in one transaction and returns its data. The route's commit also stores the answer in that
 * transaction; services take a Commit where they would have opened the transaction themselves.
 */
export type Commit<D> = (work: Work<D>) => Promise<D>

/**
 * Stores a call's answer inside a transaction that someone else runs (the trade market's batch, which commits many
 * commands at once): `data` is the answer's data, `trx` the transaction that makes the call's effects.
 */
export type AnswerIn<D> = (trx: Transaction<DB>, data: D) => Promise<void>

/**
 * Thrown by a call's work: a refusal that keeps what the transaction wrote (a pending change found stale is closed,
 * then the caller is told it was stale). The transaction commits, with the refusal as the call's stored answer.
 */
export class RefusalAfterCommit extends Error {
  constructor(readonly refusal: AppError) {
    super(refusal.message)
  }
}

/** The writes a runCommit transaction makes last (lastWrite), in the order they were given. */
const lastWrites = new WeakMap<Transaction<DB>, (() => Promise<unknown>)[]>()

/**
 * Makes `write` one of the last things `trx` does: in a runCommit transaction, after the call's work and its stored
 * answer, right before the COMMIT, in the order given; in any other transaction, now. For the rows nearly every call
 * updates (a system account, each ancestor's team figures): a transaction holds a row's lock from its statement to its
 * COMMIT, and every round trip in between waits for the instance's event loop (docs/scaling.md "What saturates
 * first"). `write` must not be needed by the work's answer; what it throws rolls the whole transaction back.
 */
export async function lastWrite(trx: Transaction<DB>, write: () => Promise<unknown>): Promise<void> {
  const queue = lastWrites.get(trx)
  if (queue) queue.push(write)
  else await write()
}

/** What a call's work came to: its data, or a refusal that keeps what was written. */
export type Outcome<D> = { data: D } | { refusal: AppError }

/**
 * Runs `work` in one transaction on `db`; `store`, when given, runs next in the same transaction with the outcome (the
 * route stores the answer), then the work's last writes (lastWrite). Resolves once committed, also with a
 * RefusalAfterCommit's refusal; any other error rolls back and rejects.
 */
export function runCommit<D>(
  db: Database,
  work: Work<D>,
  store?: (trx: Transaction<DB>, outcome: Outcome<D>) => Promise<void>,
): Promise<Outcome<D>> {
  return db.transaction().execute(async (trx) => {
    const last: (() => Promise<unknown>)[] = []
    lastWrites.set(trx, last)
    let outcome: Outcome<D>
    try {
      outcome = { data: await work(trx) }
    } catch (error) {
      if (!(error instanceof RefusalAfterCommit)) throw error
      outcome = { refusal: error.refusal }
    }
    await store?.(trx, outcome)
    // What the work wrote before a RefusalAfterCommit commits: its last writes too.
    for (let write = last.shift(); write; write = last.shift()) await write()
    return outcome
  })
}

/** The data of a committed outcome; its refusal is thrown. */
export function dataOf<D>(outcome: Outcome<D>): D {
  if ('refusal' in outcome) throw outcome.refusal
  return outcome.data
}

/** The commit of callers that store no answer (jobs, tests, benchmarks): the work in one transaction. */
export const transact =
  (db: Database) =>
  async <D>(work: Work<D>): Promise<D> =>
    dataOf(await runCommit(db, work))
