// The CPU a bench's processes use, read from /proc (Linux), and CPU quotas for them (control groups; bench/instances'
// --instance-cpu, docs/benchmarks.md "bench/instances"): each group caps the processes put into it at a number of cores, as if each ran on a machine
// of its own with that much CPU, while the rest of the bench (PostgreSQL, the load generator) runs outside the caps.
// cgroup v1's `cpu` controller (cpu.cfs_quota_us, with `cpuacct` beside it for the CPU used when it is mounted) or
// cgroup v2's (cpu.max) where the `cpu` controller is enabled at the root. Creating groups needs root (or a delegated
// hierarchy); there is no silent fallback: without a writable controller `cpuQuotas` throws and says why.
import fs from 'node:fs'
import path from 'node:path'
import { ticksPerSecond } from './postgres.ts'

/** The scheduler's period (µs) over which a quota is enforced, unless told: the kernel's default. */
const PERIOD_US = 100_000
/** Groups are named after the bench's pid, so that a crashed run's leftovers can be told apart and removed. */
const PREFIX = 'solpledge-bench-'

export interface CpuUse {
  /** CPU time used by the group's processes so far (ms), the dead ones included; NaN where the kernel does not say. */
  cpuMs: number
  /** Periods the group ran in, and those in which it used its whole quota and waited (the cap was the limit). */
  periods: number
  throttled: number
  /** Time the group's processes were ready to run but held back by the quota (ms). */
  throttledMs: number
}

export interface CpuGroup {
  readonly name: string
  /** Moves a process (and the threads and children it has or will have) into the group. */
  add: (pid: number) => void
  usage: () => CpuUse
}

interface Hierarchy {
  version: 1 | 2
  /** Where the groups are made: v1's cpu mount, or v2's root. */
  cpu: string
  /** v1's cpuacct mount when it is a separate one (the CPU used); undefined when cpu and cpuacct share a mount. */
  cpuacct?: string
}

const read = (file: string) => fs.readFileSync(file, 'utf8')
const tryRead = (file: string) => {
  try {
    return read(file)
  } catch {
    return ''
  }
}
/** A `key value` file (cpu.stat) as a record. */
const fields = (text: string) =>
  Object.fromEntries(
    text
      .split('\n')
      .filter(Boolean)
      .map((line) => {
        const [key, value] = line.split(' ')
        return [key as string, Number(value)]
      }),
  )

/** The mounts of /proc/self/mounts: v1 `cgroup` ones with their controllers, and `cgroup2` ones. */
function findHierarchy(): Hierarchy | string {
  const mounts = tryRead('/proc/self/mounts')
    .split('\n')
    .map((line) => line.split(' '))
    .filter((f) => f[2] === 'cgroup' || f[2] === 'cgroup2')
    .map(([, dir, type, options]) => ({ dir: dir as string, type, options: (options ?? '').split(',') }))
  const v1cpu = mounts.find((m) => m.type === 'cgroup' && m.options.includes('cpu'))
  if (v1cpu) {
    const acct = mounts.find((m) => m.type === 'cgroup' && m.options.includes('cpuacct'))
    return { version: 1, cpu: v1cpu.dir, cpuacct: acct && acct.dir !== v1cpu.dir ? acct.dir : undefined }
  }
  const v2 = mounts.find(
    (m) => m.type === 'cgroup2' && tryRead(path.join(m.dir, 'cgroup.controllers')).split(/\s+/).includes('cpu'),
  )
  if (v2) return { version: 2, cpu: v2.dir }
  const seen = mounts.map((m) => `${m.dir} (${m.type}${m.type === 'cgroup' ? `: ${m.options.join(',')}` : ''})`)
  return `no cgroup CPU controller is mounted (cgroup mounts: ${seen.join('; ') || 'none'})`
}

/** Removes a directory of groups, retried while its last process is still leaving it (rmdir answers EBUSY). */
async function removeGroup(dir: string) {
  for (let attempt = 0; ; attempt++) {
    try {
      fs.rmdirSync(dir)
      return
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code
      if (code === 'ENOENT') return
      if (code !== 'EBUSY' || attempt >= 50) throw error
      await new Promise((resolve) => setTimeout(resolve, 20 + attempt * 10))
    }
  }
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/** Groups left by a bench that died without removing them (their pid gone, no process left in them). */
async function removeLeftovers(dirs: string[]) {
  for (const parent of dirs)
    for (const name of fs.readdirSync(parent)) {
      const pid = Number(name.slice(PREFIX.length).split('-')[0])
      if (!name.startsWith(PREFIX) || !pid || alive(pid)) continue
      const dir = path.join(parent, name)
      if (tryRead(path.join(dir, 'cgroup.procs')).trim() === '') await removeGroup(dir).catch(() => {})
    }
}

/**
 * `count` groups of `cores` CPU each (e.g. 0.3: 30 ms of CPU per 100 ms period), made for this process and removed by
 * `remove` (call it once their processes have exited). Throws, saying why, when they cannot be made.
 */
export async function cpuQuotas(count: number, cores: number, periodUs = PERIOD_US) {
  if (!(cores > 0)) throw new Error(`a CPU quota must be a positive number of cores, not ${cores}`)
  if (!(periodUs >= 1000 && periodUs <= 1_000_000))
    throw new Error(`a quota's period must be 1 ms to 1 s, not ${periodUs} µs`)
  const found = findHierarchy()
  if (typeof found === 'string') throw new Error(`cannot cap the instances' CPU: ${found}`)
  const quotaUs = Math.round(cores * periodUs)
  if (quotaUs < 1000) throw new Error(`a quota below 1 ms per period cannot be set: ${cores} core of ${periodUs} µs`)
  const parents = [found.cpu, ...(found.cpuacct ? [found.cpuacct] : [])]
  await removeLeftovers(parents)
  if (found.version === 2) {
    // The root's children get the cpu controller only if the root hands it down.
    const control = path.join(found.cpu, 'cgroup.subtree_control')
    if (!tryRead(control).split(/\s+/).includes('cpu')) {
      try {
        fs.writeFileSync(control, '+cpu')
      } catch (error) {
        throw new Error(
          `cannot cap the instances' CPU: enabling the cpu controller in ${control} failed (${(error as Error).message})`,
        )
      }
    }
  }
  const made: string[] = []
  const remove = async () => {
    for (const dir of made.splice(0).reverse()) await removeGroup(dir)
  }
  const groups: CpuGroup[] = []
  try {
    for (let i = 0; i < count; i++) {
      const name = `${PREFIX}${process.pid}-${i}`
      const dirs = parents.map((parent) => path.join(parent, name))
      for (const dir of dirs) {
        fs.mkdirSync(dir)
        made.push(dir)
      }
      const [cpu, cpuacct] = dirs as [string, string | undefined]
      if (found.version === 1) {
        fs.writeFileSync(path.join(cpu, 'cpu.cfs_period_us'), String(periodUs))
        fs.writeFileSync(path.join(cpu, 'cpu.cfs_quota_us'), String(quotaUs))
      } else fs.writeFileSync(path.join(cpu, 'cpu.max'), `${quotaUs} ${periodUs}`)
      groups.push({
        name,
        add: (pid) => {
          for (const dir of dirs) fs.writeFileSync(path.join(dir, 'cgroup.procs'), String(pid))
        },
        usage: () => {
          const stat = fields(read(path.join(cpu, 'cpu.stat')))
          if (found.version === 2)
            return {
              cpuMs: (stat.usage_usec ?? 0) / 1000,
              periods: stat.nr_periods ?? 0,
              throttled: stat.nr_throttled ?? 0,
              throttledMs: (stat.throttled_usec ?? 0) / 1000,
            }
          // NaN where no cpuacct controller is mounted: the caller reads the processes' own times instead.
          const usageNs = Number(tryRead(path.join(cpuacct ?? cpu, 'cpuacct.usage')) || Number.NaN)
          return {
            cpuMs: usageNs / 1e6,
            periods: stat.nr_periods ?? 0,
            throttled: stat.nr_throttled ?? 0,
            throttledMs: (stat.throttled_time ?? 0) / 1e6,
          }
        },
      })
    }
  } catch (error) {
    await remove().catch(() => {})
    const code = (error as NodeJS.ErrnoException).code
    const hint =
      code === 'EACCES' || code === 'EPERM' || code === 'EROFS' ? ' (it needs root and a writable cgroup mount)' : ''
    throw new Error(`cannot cap the instances' CPU in ${found.cpu}${hint}: ${(error as Error).message}`)
  }
  return { groups, hierarchy: `cgroup v${found.version} at ${found.cpu}`, quotaUs, periodUs, remove }
}

/** CPU time (ms, user + system, all its threads) process `pid` has used so far; null once it is gone. */
export function processCpuMs(pid: number): number | null {
  const stat = tryRead(`/proc/${pid}/stat`)
  if (!stat) return null
  // After the command name: state, ppid, …, utime, stime (fields 14 and 15 of proc(5)).
  const after = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return ((Number(after[11]) + Number(after[12])) / ticksPerSecond) * 1000
}

/** The machine's CPU time so far (ms summed over its cores): busy, and idle (waiting on I/O included). */
export function machineCpuMs(): { busy: number; idle: number } | null {
  const line = tryRead('/proc/stat').split('\n')[0] ?? ''
  if (!line.startsWith('cpu ')) return null
  // user nice system idle iowait irq softirq steal (guest time is counted in user already).
  const [user, nice, system, idle, iowait, irq, softirq, steal] = line.trim().split(/\s+/).slice(1).map(Number)
  const ms = (ticks: number) => (ticks / ticksPerSecond) * 1000
  const busy = [user, nice, system, irq, softirq, steal].reduce<number>((sum, t) => sum + (t ?? 0), 0)
  return { busy: ms(busy), idle: ms((idle ?? 0) + (iowait ?? 0)) }
}
