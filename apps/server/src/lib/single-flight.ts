/**
 * `compute`, shared: a call while a computation runs waits for it instead of starting another, and a call within
 * `ms` after it succeeded gets its result again. A failure is not kept (the next call computes anew, one at a time).
 * For public figures read from the chain (the solvency report, readiness): any request rate then costs at most one
 * read per `ms` per instance, and none in parallel.
 */
export function singleFlight<T>(ms: number, compute: () => Promise<T>, now: () => number = Date.now) {
  let current: { value: Promise<T>; until: number } | undefined
  return (): Promise<T> => {
    if (current && current.until > now()) return current.value
    const entry = { value: compute(), until: Number.POSITIVE_INFINITY }
    current = entry
    entry.value.then(
      () => {
        entry.until = now() + ms
      },
      () => {
        if (current === entry) current = undefined
      },
    )
    return entry.value
  }
}
