// The PostgreSQL cluster of a benchmark: a throwaway one of its own (scripts/postgres.mjs), or, under
// `npm run bench:smoke`, the one cluster the smoke run started for every benchmark (BENCH_POSTGRES, which it sets):
// then stopping is the smoke run's business.
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

const TICKS_PER_SECOND = 100

/**
 * CPU time (ms, user + system) used so far by the cluster listening on `port`: its postmaster and the processes it
 * started (backends, background workers), from /proc (Linux); null where that cannot be read. A backend that has
 * exited no longer counts: read it while the connections of interest are open.
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
    // Fields after the command name: state, ppid, …, utime (12th), stime (13th).
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    if (pid === postmaster || fields[1] === postmaster) ticks += Number(fields[11]) + Number(fields[12])
  }
  return (ticks / TICKS_PER_SECOND) * 1000
}
