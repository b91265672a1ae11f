// The PostgreSQL cluster of a benchmark: a throwaway one of its own (scripts/postgres.mjs), or, under
// `npm run bench:smoke`, the one cluster the smoke run started for every benchmark (BENCH_POSTGRES, which it sets):
// then stopping is the smoke run's business.
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
// @ts-expect-error plain ESM helper shared with the npm scripts
import { startPostgres } from '../scripts/postgres.mjs'

export interface BenchCluster {
  url: string
  port: number
  binDir: string
  stop: () => void
}

export async function benchPostgres(): Promise<BenchCluster> {
  const shared = process.env.BENCH_POSTGRES
  if (shared) return { ...(JSON.parse(shared) as Omit<BenchCluster, 'stop'>), stop: () => {} }
  return (await startPostgres()) as BenchCluster
}

/** Clock ticks a second, the unit of /proc's CPU times. */
export const ticksPerSecond = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100

/**
 * CPU time (ms, user + system) used so far by the cluster listening on `port`: its postmaster, the processes it runs
 * (backends, writers, checkpointer, autovacuum) and what its exited children used, from /proc (Linux); null where that
 * cannot be read. On a machine shared with other work a run's wall time depends on what else runs, the CPU time much
 * less: the benches report both.
 */
export function clusterCpuMs(port: number): number | null {
  const pids = (() => {
    try {
      return fs.readdirSync('/proc').filter((name) => /^\d+$/.test(name))
    } catch {
      return []
    }
  })()
  const read = (file: string) => {
    try {
      return fs.readFileSync(file, 'utf8')
    } catch {
      return ''
    }
  }
  const postmaster = pids.find((pid) => {
    const argv = read(`/proc/${pid}/cmdline`).split('\0')
    return argv[0]?.endsWith('/postgres') && argv[argv.indexOf('-p') + 1] === String(port)
  })
  if (!postmaster) return null
  let ticks = 0
  for (const pid of pids) {
    const stat = read(`/proc/${pid}/stat`)
    // Fields after the command name: state, ppid, …, utime, stime, cutime, cstime (fields 14-17 of proc(5)).
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    const own = Number(fields[11]) + Number(fields[12])
    if (pid === postmaster) ticks += own + Number(fields[13]) + Number(fields[14])
    else if (fields[1] === postmaster) ticks += own
  }
  return (ticks / ticksPerSecond) * 1000
}
