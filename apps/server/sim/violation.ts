// A broken invariant of the simulated run: the client, the commands, the invariants and the runner throw it, and the
// run reports it with the seed that reproduces it (docs/simulator.md).
export class Violation extends Error {
  constructor(
    readonly invariant: string,
    readonly detail: string,
  ) {
    super(`${invariant}: ${detail}`)
  }
}
