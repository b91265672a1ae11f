// A throwaway PostgreSQL cluster for tests and benchmarks: initdb in a temporary directory owned by the `postgres`
// user (the server binaries refuse to run as root), started on a free loopback port, removed on stop.
import { execFileSync, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { freePort, log } from './lib.mjs'

/** The newest installed PostgreSQL's bin directory (Debian's layout), or undefined. */
export function findBinDir() {
  const base = '/usr/lib/postgresql'
  if (!fs.existsSync(base)) return undefined
  const versions = fs.readdirSync(base).filter((v) => fs.existsSync(path.join(base, v, 'bin', 'initdb')))
  versions.sort((a, b) => Number(b) - Number(a))
  return versions[0] && path.join(base, versions[0], 'bin')
}

function ensureInstalled() {
  let binDir = findBinDir()
  if (binDir) return binDir
  if (process.getuid?.() !== 0) throw new Error('PostgreSQL server binaries are missing: apt-get install -y postgresql')
  log('installing PostgreSQL (apt-get install postgresql)')
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }
  spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env })
  const res = spawnSync('apt-get', ['install', '-y', '-qq', 'postgresql'], { stdio: 'inherit', env })
  if (res.status !== 0) throw new Error('apt-get install postgresql failed')
  binDir = findBinDir()
  if (!binDir) throw new Error('PostgreSQL was installed but initdb was not found')
  return binDir
}

/** Starts a cluster and returns { url, stop }. */
export async function startPostgres() {
  const binDir = ensureInstalled()
  const asRoot = process.getuid?.() === 0
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'solpledge-pg-'))
  const dataDir = path.join(dir, 'data')
  if (asRoot) execFileSync('chown', ['-R', 'postgres:postgres', dir])
  fs.chmodSync(dir, 0o700)
  const pgRun = (tool, args) => {
    const argv = asRoot ? ['-u', 'postgres', '--', path.join(binDir, tool), ...args] : args
    const res = spawnSync(asRoot ? 'runuser' : path.join(binDir, tool), argv, { encoding: 'utf8' })
    if (res.status !== 0) throw new Error(`${tool} failed: ${res.stderr || res.stdout}`)
    return res.stdout
  }
  pgRun('initdb', ['-D', dataDir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync'])
  const port = await freePort()
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c max_connections=200 -c fsync=off -c synchronous_commit=off -c full_page_writes=off`
  pgRun('pg_ctl', ['-D', dataDir, '-o', options, '-l', path.join(dir, 'log'), '-w', '-t', '60', 'start'])
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`
  const stop = () => {
    try {
      pgRun('pg_ctl', ['-D', dataDir, '-m', 'immediate', '-w', 'stop'])
    } catch {}
    fs.rmSync(dir, { recursive: true, force: true })
  }
  return { url, port, binDir, stop }
}
