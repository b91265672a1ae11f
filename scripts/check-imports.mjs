// The import rules of docs/architecture.md ("Layers and boundaries"), written in .dependency-cruiser.mjs and checked
// by dependency-cruiser over every app, package, test, e2e journey, benchmark and script. `npm run lint` runs it.
// Usage: node scripts/check-imports.mjs — exits 1 and lists the broken rules when there are any.
// (`npx depcruise apps packages e2e bench scripts --config .dependency-cruiser.mjs` runs the same rules.)
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { cruise, format } from 'dependency-cruiser'
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options'
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config'

const REPOSITORY = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
/** Where the code is: everything the repository runs. */
export const SOURCES = ['apps', 'packages', 'e2e', 'bench', 'scripts']

/**
 * dependency-cruiser's result for the tree under `root` (a repository laid out like this one), with the rules of
 * .dependency-cruiser.mjs. `cache` keeps what did not change between runs (node_modules/.cache/dependency-cruiser).
 * @returns {Promise<import('dependency-cruiser').ICruiseResult>}
 */
export async function cruiseTree(root = REPOSITORY, { cache = false } = {}) {
  const options = await extractDepcruiseOptions(path.join(REPOSITORY, '.dependency-cruiser.mjs'))
  const tsConfig = path.join(root, options.tsConfig.fileName)
  const sources = SOURCES.filter((source) => fs.existsSync(path.join(root, source)))
  const { output } = await cruise(
    sources,
    {
      ...options,
      baseDir: root,
      tsConfig: { fileName: tsConfig },
      cache: cache && { folder: path.join(root, 'node_modules/.cache/dependency-cruiser'), strategy: 'content' },
    },
    {},
    { tsConfig: extractTSConfig(tsConfig) },
  )
  return /** @type {import('dependency-cruiser').ICruiseResult} */ (output)
}

/** The broken rules of a cruise, one line each: `rule: from → to` (a cycle names its files in order). */
export function violationsOf(result) {
  return result.summary.violations.map(({ rule, from, to, cycle }) =>
    cycle ? `${rule.name}: ${[from, ...cycle.map((step) => step.name)].join(' → ')}` : `${rule.name}: ${from} → ${to}`,
  )
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const result = await cruiseTree(REPOSITORY, { cache: true })
  if (result.summary.violations.length > 0) {
    const { output } = await format(result, { outputType: 'err-long' })
    console.error(output)
    console.error('See docs/architecture.md, "Layers and boundaries".')
    process.exit(1)
  }
}
