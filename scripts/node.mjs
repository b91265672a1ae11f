// The Node.js the project runs on: 22 LTS or newer (package.json `engines`; npm only warns on an older
// one, so that `npm ci` works on any machine).
// On an older Node, `npm start` and `npm test` fetch Node 22 from the npm registry's `node` package into a cache folder
// (reused by every later run and every clone on the machine) and run themselves again under it, with that Node first
// on PATH, so every child — npm ci, vitest, playwright, tsx, the server — runs on it too.
//
//   node scripts/node.mjs [22|24]     installs that Node in the cache when missing and prints its bin directory:
//                                     export PATH="$(node scripts/node.mjs):$PATH" for any other command
// Plain Node, no dependencies: it runs before npm ci, on whatever Node the machine has.
import { spawn, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

/** The oldest Node the project supports (package.json engines.node). */
export const MIN_NODE = [22, 12]

/** Where fetched Node binaries live: SOLPLEDGE_CACHE, else $XDG_CACHE_HOME/solpledge, else ~/.cache/solpledge. */
export const cacheDir = () =>
  process.env.SOLPLEDGE_CACHE || path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'solpledge')

export function supported(version = process.versions.node) {
  const [major, minor] = version.split('.').map(Number)
  return major > MIN_NODE[0] || (major === MIN_NODE[0] && minor >= MIN_NODE[1])
}

/** On stderr: `$(node scripts/node.mjs)` captures the directory alone. */
const say = (message) => console.error(`\x1b[36m[solpledge]\x1b[0m ${message}`)

/**
 * The bin directory of Node `major` (its `node` only) from the npm registry's `node` package, installed into the cache
 * when it is not there yet. Installs into a folder of its own and renames it into place, so two runs at once never
 * see half an install.
 */
export function nodeBinDir(major = 22) {
  const prefix = path.join(cacheDir(), `node-${major}`)
  const bin = path.join(prefix, 'node_modules', 'node', 'bin')
  if (fs.existsSync(path.join(bin, 'node'))) return bin
  fs.mkdirSync(cacheDir(), { recursive: true })
  const staging = `${prefix}.${process.pid}`
  fs.rmSync(staging, { recursive: true, force: true })
  fs.mkdirSync(staging)
  say(`fetching Node ${major} from the npm registry (package node@${major}) into ${prefix}`)
  // cwd outside the repository, so its .npmrc and workspaces do not apply to this install.
  const npm = spawnSync(
    'npm',
    [
      'install',
      '--prefix',
      staging,
      '--no-save',
      '--no-package-lock',
      '--no-audit',
      '--no-fund',
      '--loglevel=error',
      `node@${major}`,
    ],
    { cwd: staging, stdio: ['ignore', process.stderr, 'inherit'] },
  )
  const built = path.join(staging, 'node_modules', 'node', 'bin', 'node')
  if (npm.status !== 0 || !fs.existsSync(built)) {
    fs.rmSync(staging, { recursive: true, force: true })
    throw new Error(`could not install node@${major} from the npm registry (npm exited with ${npm.status})`)
  }
  try {
    fs.renameSync(staging, prefix)
  } catch {
    fs.rmSync(staging, { recursive: true, force: true }) // another run put it there first
  }
  return bin
}

/** The environment of a child that must run on the Node in `bin`: that Node first on PATH. */
export const envWithNode = (bin, env = process.env) => ({ ...env, PATH: `${bin}${path.delimiter}${env.PATH ?? ''}` })

/**
 * Returns at once on a supported Node. On an older one, runs this same script again under Node 22 from the cache (one
 * line says so), passes signals on to it, and exits with its exit code: the caller's code after this call never runs
 * on the old Node.
 */
export async function runOnSupportedNode() {
  if (supported()) return
  if (process.env.SOLPLEDGE_NODE_BIN)
    throw new Error(`Node ${process.versions.node} runs, but ${process.env.SOLPLEDGE_NODE_BIN} should be Node 22`)
  const bin = nodeBinDir(22)
  const version = spawnSync(path.join(bin, 'node'), ['--version'], { encoding: 'utf8' }).stdout.trim()
  say(`Node ${process.versions.node} is older than ${MIN_NODE.join('.')}: running under Node ${version} from ${bin}`)
  const child = spawn(path.join(bin, 'node'), [...process.execArgv, ...process.argv.slice(1)], {
    stdio: 'inherit',
    env: { ...envWithNode(bin), SOLPLEDGE_NODE_BIN: bin },
  })
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal))
  const code = await new Promise((resolve) =>
    child.on('exit', (exitCode, signal) => resolve(exitCode ?? 128 + (os.constants.signals[signal] ?? 0))),
  )
  process.exit(code)
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const major = Number(process.argv[2] ?? 22)
  if (!Number.isInteger(major) || major < MIN_NODE[0]) {
    console.error('usage: node scripts/node.mjs [22|24]')
    process.exit(2)
  }
  console.log(nodeBinDir(major))
}
