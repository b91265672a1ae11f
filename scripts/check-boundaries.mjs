// The import rules of docs/architecture.md ("Layers and boundaries"), checked by `npm run lint` over the relative (and web `@/`)
// imports of apps/server/src and apps/web/src:
// - a server module imports another module only through its public entry (`index.ts`);
// - apps/server/src/lib imports no module;
// - a web feature imports no other feature; apps/web/src/lib and apps/web/src/components import no feature; the same
//   inside the console (apps/web/src/admin: features/<area>, lib, components); the users' app imports no console code;
// - the server's code (apps/server/src) imports neither the simulator (apps/server/sim) nor the tests;
// - no import cycle between files (`import type` left out: erased at build; a name imported from a module's index.ts
//   leads to the file that index re-exports it from).
// Usage: node scripts/check-boundaries.mjs [root] — exits 1 and lists the violations when there are any.
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const SOURCE = /\.(ts|tsx|mts|js|mjs)$/
/** `import|export [type] <clause> from 'x'`, `import 'x'` and `import('x')`. */
const IMPORT =
  /(?:^|[\s;])(?:(import|export)\s+(type\s+)?([\w*{}\s,$]+?)\s+from\s*['"]([^'"]+)['"]|import\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\))/g

function walk(dir, files = []) {
  if (!fs.existsSync(dir)) return files
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name)
    if (entry.isDirectory()) walk(full, files)
    else if (SOURCE.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts'))
      files.push(full)
  }
  return files
}

/** The file an import names, or null when it is a package (or does not exist). */
function resolve(from, specifier, webSrc) {
  let base
  if (specifier.startsWith('.')) base = path.resolve(path.dirname(from), specifier)
  else if (specifier.startsWith('@/')) base = path.join(webSrc, specifier.slice(2))
  else return null
  const candidates = [base, ...['.ts', '.tsx', '/index.ts', '/index.tsx'].map((end) => base + end)]
  return candidates.find((file) => fs.existsSync(file) && fs.statSync(file).isFile()) ?? null
}

/**
 * The imports (and re-exports) of a file, comments left out: the specifier, whether all of it is types only (erased
 * at build, so no edge of a cycle), and the names it takes (`[{name, as, type}]`), or null for the whole module.
 */
function importsOf(file) {
  const text = fs
    .readFileSync(file, 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/^\s*\/\/.*$/gm, '')
  return [...text.matchAll(IMPORT)].map(([, keyword, type, clause, from, bare, dynamic]) => {
    const braces = clause?.trim().match(/^\{([\s\S]*)\}$/)
    const names = braces
      ? braces[1]
          .split(',')
          .map((part) => part.trim())
          .filter(Boolean)
          .map((part) => {
            const [, typeOnly, name, alias] = part.match(/^(type\s+)?([\w$]+)(?:\s+as\s+([\w$]+))?$/) ?? []
            return { name, as: alias ?? name, type: Boolean(type || typeOnly) }
          })
      : null
    return { specifier: from ?? bare ?? dynamic, reexport: keyword === 'export', type: Boolean(type), names }
  })
}

/** `{area, name, rest}` of a file under one of the watched folders, or null. */
function placeOf(root, file) {
  const rel = path.relative(root, file).split(path.sep).join('/')
  let m = rel.match(/^apps\/server\/src\/modules\/([^/]+)\/(.+)$/)
  if (m) return { area: 'server-module', name: m[1], rest: m[2] }
  if (rel.startsWith('apps/server/src/lib/')) return { area: 'server-lib' }
  if (rel.startsWith('apps/server/src/')) return { area: 'server' }
  if (/^apps\/server\/(sim|test)\//.test(rel)) return { area: 'server-tooling' }
  m = rel.match(/^apps\/web\/src\/features\/([^/]+)\/(.+)$/)
  if (m) return { area: 'web-feature', name: m[1], rest: m[2] }
  if (/^apps\/web\/src\/(lib|components)\//.test(rel)) return { area: 'web-shared' }
  // The operator console (apps/web/src/admin) keeps the same rules among its own areas.
  m = rel.match(/^apps\/web\/src\/admin\/features\/([^/]+)\/(.+)$/)
  if (m) return { area: 'console-feature', name: m[1], rest: m[2] }
  if (/^apps\/web\/src\/admin\/(lib|components)\//.test(rel)) return { area: 'console-shared' }
  if (rel.startsWith('apps/web/src/admin/')) return { area: 'console' }
  return { area: 'other' }
}

/** Why importing `to` from `from` breaks a rule, or null. */
function ruleBroken(root, from, to) {
  const a = placeOf(root, from)
  const b = placeOf(root, to)
  if (a.area === 'server-lib' && b.area === 'server-module') return 'server lib/ imports a module'
  if (['server', 'server-module', 'server-lib'].includes(a.area) && b.area === 'server-tooling')
    return 'production code imports the simulator or the tests'
  if (a.area === 'server-module' && b.area === 'server-module' && a.name !== b.name && b.rest !== 'index.ts')
    return `module ${a.name} imports module ${b.name}'s internals (import its index.ts)`
  if (a.area === 'web-feature' && b.area === 'web-feature' && a.name !== b.name)
    return `feature ${a.name} imports feature ${b.name}`
  if (a.area === 'web-shared' && b.area === 'web-feature') return 'web lib/ or components/ imports a feature'
  if (a.area === 'console-feature' && b.area === 'console-feature' && a.name !== b.name)
    return `console area ${a.name} imports console area ${b.name}`
  if (a.area === 'console-shared' && b.area === 'console-feature')
    return 'console lib/ or components/ imports a console area'
  if ((a.area === 'web-feature' || a.area === 'web-shared') && b.area.startsWith('console'))
    return "the users' app imports the console (a lazy chunk of its own)"
  return null
}

/** Tarjan's strongly connected components: every component of more than one file (or a self-import) is a cycle. */
function cycles(graph) {
  const index = new Map()
  const low = new Map()
  const stack = []
  const onStack = new Set()
  const found = []
  let next = 0
  const visit = (node) => {
    index.set(node, next)
    low.set(node, next++)
    stack.push(node)
    onStack.add(node)
    for (const to of graph.get(node) ?? []) {
      if (!index.has(to)) {
        visit(to)
        low.set(node, Math.min(low.get(node), low.get(to)))
      } else if (onStack.has(to)) low.set(node, Math.min(low.get(node), index.get(to)))
    }
    if (low.get(node) !== index.get(node)) return
    const component = []
    let member
    do {
      member = stack.pop()
      onStack.delete(member)
      component.push(member)
    } while (member !== node)
    if (component.length > 1 || graph.get(node)?.has(node)) found.push(component.reverse())
  }
  for (const node of graph.keys()) if (!index.has(node)) visit(node)
  return found
}

/**
 * Every violation under `root` (the repository), as readable lines. For cycles, an import of named values from a
 * module's index.ts leads to the files that index re-exports them from, so a public entry adds no cycle of its own.
 */
export function checkBoundaries(root) {
  const webSrc = path.join(root, 'apps/web/src')
  const files = [...walk(path.join(root, 'apps/server/src')), ...walk(webSrc)]
  const problems = []
  const rel = (file) => path.relative(root, file).split(path.sep).join('/')
  const imports = new Map()
  for (const file of files) {
    const resolved = []
    for (const entry of importsOf(file)) {
      const to = resolve(file, entry.specifier, webSrc)
      if (!to) continue
      resolved.push({ ...entry, to })
      const broken = ruleBroken(root, file, to)
      if (broken) problems.push(`${rel(file)} → ${entry.specifier}: ${broken}`)
    }
    imports.set(file, resolved)
  }
  // Where each index.ts takes the names it re-exports from.
  const reexported = (index, name) =>
    imports.get(index)?.find((entry) => entry.reexport && entry.names?.some((n) => n.as === name))?.to
  const graph = new Map()
  for (const [file, entries] of imports) {
    const edges = new Set()
    for (const { to, type, names } of entries) {
      if (type) continue
      const values = names?.filter((n) => !n.type)
      if (names && values.length === 0) continue
      if (!/\/index\.tsx?$/.test(to) || !values) edges.add(to)
      else for (const { name } of values) edges.add(reexported(to, name) ?? to)
    }
    graph.set(file, edges)
  }
  for (const cycle of cycles(graph)) problems.push(`import cycle: ${[...cycle, cycle[0]].map(rel).join(' → ')}`)
  return problems
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = path.resolve(process.argv[2] ?? path.join(path.dirname(fileURLToPath(import.meta.url)), '..'))
  const problems = checkBoundaries(root)
  for (const problem of problems) console.error(problem)
  if (problems.length > 0) {
    console.error(`${problems.length} import rule(s) broken: see docs/architecture.md, "Boundaries"`)
    process.exit(1)
  }
}
