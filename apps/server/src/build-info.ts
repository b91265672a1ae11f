// Which release this server is and which commit it was built from (docs/operations.md, "Upgrades and migrations"):
// `npm run build` writes dist/build-info.json beside the compiled server; from the sources (npm start, the tests) the
// same is read at start from package.json and git. /api/health/live and /ready answer it, and the metric
// solpledge_build_info carries it.
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

export interface BuildInfo {
  /** package.json's version (semantic versioning; CHANGELOG.md). */
  version: string
  /** The git commit, with `-dirty` when the tree had uncommitted changes; `unknown` without git. */
  commit: string
}

const here = path.dirname(fileURLToPath(import.meta.url))
/** The repository's root: this file is in apps/server/src or apps/server/dist. */
const ROOT = path.resolve(here, '../../..')

const git = (...args: string[]) =>
  execFileSync('git', args, { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim()

/** From package.json and git now; SOLPLEDGE_COMMIT names the commit where there is no git (a source archive). */
function fromSources(): BuildInfo {
  const { version } = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string }
  let commit = process.env.SOLPLEDGE_COMMIT?.trim() || 'unknown'
  if (commit === 'unknown')
    try {
      commit = git('rev-parse', 'HEAD') + (git('status', '--porcelain', '--untracked-files=no') ? '-dirty' : '')
    } catch {
      // not a git checkout: unknown
    }
  return { version, commit }
}

let info: BuildInfo | undefined
export function buildInfo(): BuildInfo {
  if (!info) {
    const file = path.join(here, 'build-info.json')
    info = fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as BuildInfo) : fromSources()
  }
  return info
}

// `node dist/build-info.js`, the last step of the server's build: records the release and commit beside the build.
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const written = fromSources()
  fs.writeFileSync(path.join(here, 'build-info.json'), `${JSON.stringify(written)}\n`)
  console.log(`build info: version ${written.version}, commit ${written.commit}`)
}
