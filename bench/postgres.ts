// The PostgreSQL cluster of a benchmark: a throwaway one of its own (scripts/postgres.mjs), or, under
// `npm run bench:smoke`, the one cluster the smoke run started for every benchmark (BENCH_POSTGRES, which it sets):
// then stopping is the smoke run's business.
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
