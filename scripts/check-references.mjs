// The repository explains itself (docs/design.md#documentation): checked by `npm run lint` over every tracked text file.
// - No pointer to knowledge outside the repository: the specification and the design live in docs/product.md and
//   docs/design.md, so the outside specification's name in capitals, a section sign with a number, the outside
//   specification, design and environment files, /work/shared or a tracker's numbered item is refused (say what the
//   code does and link the doc).
// - Every link into docs/ resolves: `docs/<file>.md#<anchor>` anywhere, and in Markdown every relative `](<file>.md#<anchor>)`,
//   names a file that exists and a heading of it, spelled as GitHub renders heading anchors.
// Usage: node scripts/check-references.mjs [root] — exits 1 and lists the violations when there are any.
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

/** What points outside the repository, with what to write instead. */
const OUTSIDE = [
  // Written with character classes and escapes, so that this file does not spell what it refuses.
  [
    /\bS[P]EC\b|\u00a7\s?\d|\b(?:S[P]EC|D[E]SIGN|E[N]VIRONMENT)\.md\b|\/work\/shared\b/,
    'link docs/product.md or docs/design.md',
  ],
  [/\b[Ii]ss[u]es? #?\d+/, 'say what it is, or link the doc that explains it'],
]
/** This checker and its test spell the refused patterns on purpose. */
const SELF = new Set(['scripts/check-references.mjs', 'scripts/check-references.test.mjs'])

/** The files git tracks under `root` (relative paths), or every file when `root` is not a git work tree. */
function trackedFiles(root) {
  try {
    return execFileSync('git', ['ls-files', '-z'], {
      cwd: root,
      encoding: 'utf8',
      maxBuffer: 64 << 20,
      stdio: ['ignore', 'pipe', 'ignore'],
    })
      .split('\0')
      .filter(Boolean)
  } catch {
    const files = []
    const walk = (dir) => {
      for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
        const rel = path.posix.join(dir, entry.name)
        if (entry.isDirectory()) {
          if (entry.name !== 'node_modules' && entry.name !== '.git') walk(rel)
        } else files.push(rel)
      }
    }
    walk('')
    return files
  }
}

/** GitHub's anchor of a heading: lower case, markup and punctuation dropped, each space a hyphen. */
export function slug(heading) {
  return heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{M} _-]/gu, '')
    .replace(/ /g, '-')
}

/** The anchors of a Markdown file: its headings (repeats get -1, -2, … as on GitHub) and explicit ids. */
function anchorsOf(text) {
  const anchors = new Set()
  const seen = new Map()
  let fence = false
  for (const line of text.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fence = !fence
    if (fence) continue
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)
    if (heading) {
      const base = slug(heading[1])
      const count = seen.get(base) ?? 0
      seen.set(base, count + 1)
      anchors.add(count === 0 ? base : `${base}-${count}`)
    }
    for (const id of line.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(id[1])
  }
  return anchors
}

/** Violations as `file:line: message`, for the tracked files under `root` (or the `files` given). */
export function checkReferences(root, files = trackedFiles(root)) {
  const problems = []
  const anchorCache = new Map()
  const anchors = (file) => {
    if (!anchorCache.has(file)) anchorCache.set(file, anchorsOf(fs.readFileSync(path.join(root, file), 'utf8')))
    return anchorCache.get(file)
  }
  const checkLink = (where, target, anchor) => {
    const full = path.join(root, target)
    if (!fs.existsSync(full) || !fs.statSync(full).isFile()) problems.push(`${where}: ${target} does not exist`)
    else if (anchor !== undefined && !anchors(target).has(anchor))
      problems.push(`${where}: ${target} has no heading #${anchor}`)
  }
  for (const file of files) {
    if (SELF.has(file)) continue
    const full = path.join(root, file)
    if (!fs.existsSync(full)) continue
    const buffer = fs.readFileSync(full)
    if (buffer.includes(0)) continue
    const markdown = file.endsWith('.md')
    buffer
      .toString('utf8')
      .split('\n')
      .forEach((line, index) => {
        const where = `${file}:${index + 1}`
        for (const [pattern, advice] of OUTSIDE) {
          const found = pattern.exec(line)
          if (found) problems.push(`${where}: "${found[0]}" points outside the repository (${advice})`)
        }
        // A repository path into docs/ (code comments, and plain text in Markdown).
        for (const m of line.matchAll(/(?<![\w./-])(docs\/[\w./-]+?\.md)(?:#([\w-]+))?/g)) {
          if (markdown && line.slice(m.index - 2, m.index) === '](') continue
          checkLink(where, m[1], m[2])
        }
        // A relative Markdown link.
        if (markdown)
          for (const m of line.matchAll(/\]\((?!https?:|mailto:|#|\/)([^)#\s]+\.md)(?:#([^)\s]+))?\)/g))
            checkLink(where, path.posix.normalize(path.posix.join(path.posix.dirname(file), m[1])), m[2])
      })
  }
  return problems
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const problems = checkReferences(path.resolve(process.argv[2] ?? '.'))
  for (const problem of problems) console.error(problem)
  if (problems.length > 0) {
    console.error(`${problems.length} reference problem(s): see docs/design.md#documentation`)
    process.exit(1)
  }
}
