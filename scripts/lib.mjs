// Helpers shared by scripts/start.mjs and scripts/test.mjs. Plain Node, no dependencies: they run before npm install.
import { spawn, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import net from 'node:net'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
export const bin = (name) => path.join(root, 'node_modules', '.bin', name)

export function log(message) {
  console.log(`\x1b[36m[solpledge]\x1b[0m ${message}`)
}

/** Runs a command to completion, inheriting output; returns its exit code. */
export function run(command, args, options = {}) {
  const result = spawnSync(command, args, { stdio: 'inherit', cwd: root, ...options })
  if (result.error) throw result.error
  return result.status ?? 1
}

export function must(command, args, options) {
  const code = run(command, args, options)
  if (code !== 0) throw new Error(`${command} ${args.join(' ')} exited with ${code}`)
}

/**
 * Installs exactly the locked dependencies (`npm ci`) when node_modules is missing or older than the lockfile, so
 * every test run proves the committed lockfile installs on a fresh clone (and nothing rewrites it).
 */
export function ensureDependencies() {
  const marker = path.join(root, 'node_modules', '.package-lock.json')
  const lock = path.join(root, 'package-lock.json')
  if (fs.existsSync(marker) && fs.statSync(marker).mtimeMs >= fs.statSync(lock).mtimeMs) return
  log('installing dependencies (npm ci)')
  must('npm', ['ci', '--no-audit', '--no-fund'])
}

const newestMtime = (dir) => {
  let newest = 0
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue
    const full = path.join(dir, entry.name)
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full) : fs.statSync(full).mtimeMs)
  }
  return newest
}

/** Builds the web app when its bundle is missing or older than any web, contract or demo-wallet source. */
export function ensureWebBuild({ force = false } = {}) {
  const index = path.join(root, 'apps/web/dist/index.html')
  const sources = ['apps/web', 'packages/contract', 'packages/demo-wallet'].map((d) => newestMtime(path.join(root, d)))
  if (!force && fs.existsSync(index) && fs.statSync(index).mtimeMs >= Math.max(...sources)) return
  log('building the web app')
  must('npm', ['run', 'build', '-w', 'apps/web'])
}

/**
 * A tool from Debian's packages: `binary` when it is there, else `apt-get install <pkg>` when running as root (as CI
 * does). Returns its path, or null when it cannot be had. `apt-get` waits for another install's lock.
 */
export function debianTool(binary, pkg) {
  if (fs.existsSync(binary)) return binary
  if (process.getuid?.() !== 0) return null
  log(`installing ${pkg} (apt-get)`)
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }
  const apt = (args) =>
    spawnSync('apt-get', ['-o', 'DPkg::Lock::Timeout=300', ...args], { stdio: ['ignore', 'inherit', 'inherit'], env })
  apt(['update', '-qq'])
  apt(['install', '-y', '-qq', '--no-install-recommends', pkg])
  return fs.existsSync(binary) ? binary : null
}

/**
 * The ports the system hands out itself (to `listen(0)` and to every outgoing connection): a port taken from there
 * and bound seconds later (a server started after its port was chosen) can meanwhile be an outgoing connection's.
 */
function ephemeralLow() {
  try {
    return Number(fs.readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0])
  } catch {
    return 32768
  }
}

const handedOut = new Set()

/** Whether `port` can be listened on now (0: any port; resolves the one given, or null). */
function tryListen(port) {
  return new Promise((resolve) => {
    const server = net.createServer()
    server.unref()
    server.on('error', () => resolve(null))
    server.listen(port, '127.0.0.1', () => {
      const bound = server.address().port
      server.close(() => resolve(bound))
    })
  })
}

/**
 * A free port on 127.0.0.1 for a server started afterwards: below the system's ephemeral range (so that no outgoing
 * connection or `listen(0)` takes it before the server binds it), picked at random and never twice in this process.
 * Where that range leaves too few ports below it, a port the system picks.
 */
export async function freePort() {
  const low = ephemeralLow()
  const from = 10_000
  for (let attempt = 0; low - from > 1_000 && attempt < 50; attempt++) {
    const port = from + Math.floor(Math.random() * (low - from))
    if (handedOut.has(port)) continue
    if ((await tryListen(port)) !== null) {
      handedOut.add(port)
      return port
    }
  }
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = await tryListen(0)
    if (port !== null && !handedOut.has(port)) {
      handedOut.add(port)
      return port
    }
  }
  throw new Error('no free port on 127.0.0.1')
}

/**
 * Starts a long-running child and resolves when a line of its output matches `ready`. Its lines are echoed with a
 * `[name]` prefix (none when `quiet`, and only after it is ready), except JSON lines (the server's log), which pass
 * through unchanged.
 */
export function startService(name, command, args, { env = {}, ready, timeoutMs = 120_000, quiet = false } = {}) {
  const child = spawn(command, args, { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
  const lines = []
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new Error(`${name} was not ready within ${timeoutMs} ms:\n${lines.slice(-30).join('\n')}`))
    }, timeoutMs)
    let done = false
    const onLine = (line) => {
      lines.push(line)
      // JSON log lines pass through unchanged, so a log collector can still parse them.
      if (!quiet || done) process.stdout.write(`${quiet || line.startsWith('{') ? '' : `[${name}] `}${line}\n`)
      const match = !done && line.match(ready)
      if (match) {
        done = true
        clearTimeout(timer)
        resolve({ child, match })
      }
    }
    for (const stream of [child.stdout, child.stderr]) {
      let buffer = ''
      stream.on('data', (chunk) => {
        buffer += chunk
        const parts = buffer.split('\n')
        buffer = parts.pop() ?? ''
        for (const part of parts) onLine(part)
      })
    }
    child.on('exit', (code, signal) => {
      if (!done) {
        clearTimeout(timer)
        reject(new Error(`${name} exited (${code ?? signal}) before it was ready:\n${lines.slice(-30).join('\n')}`))
      }
    })
  })
}

export function stopChild(child, signal = 'SIGTERM', graceMs = 10_000) {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve()
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs)
    child.once('exit', () => {
      clearTimeout(timer)
      resolve()
    })
    child.kill(signal)
  })
}
