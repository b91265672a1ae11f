// Outage and recovery lines for a dependency (docs/operations.md, "Logs"): one warning when it stops answering and one
// info line, with how long it was away, when it answers again — not a line per failed call.

/** The part of a pino logger this needs. */
export interface OutageLog {
  warn(fields: object, message: string): void
  info(fields: object, message: string): void
}

export class Reachability {
  private downSince: number | null = null

  /** `what` names the dependency in the lines ("database", "RPC endpoint"); `fields` are added to both lines. */
  constructor(
    private readonly log: OutageLog | undefined,
    private readonly what: string,
    private readonly fields: object = {},
  ) {}

  get reachable(): boolean {
    return this.downSince === null
  }

  /** A call failed because the dependency did not answer: logs the outage once. */
  failed(error: unknown, now = Date.now()) {
    if (this.downSince !== null) return
    this.downSince = now
    this.log?.warn(
      { ...this.fields, err: error instanceof Error ? error.message : String(error) },
      `${this.what} unreachable`,
    )
  }

  /** A call succeeded: logs the recovery, with the outage's length, when there was one. */
  answered(now = Date.now()) {
    if (this.downSince === null) return
    const downMs = now - this.downSince
    this.downSince = null
    this.log?.info(
      { ...this.fields, down_ms: downMs },
      `${this.what} reachable again after ${Math.round(downMs / 1000)} s`,
    )
  }
}
