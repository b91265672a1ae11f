// The operator commands (`npm run settle`, `npm run snapshot-liabilities`, `npm run verify-proof`), on either install:
// from the TypeScript sources through tsx where the development tools are installed, and from the compiled build with
// plain node on a production install (`npm ci --omit=dev --workspace apps/server` after `npm run build`: no tsx, no
// TypeScript at run time; docs/operations.md "Build and serve").
//   node scripts/cli.mjs <command> [arguments…]
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { bin, root } from './lib.mjs'

const COMMANDS = {
  settle: 'apps/server/src/cli/settle.ts',
  'snapshot-liabilities': 'apps/server/src/cli/snapshot-liabilities.ts',
  'verify-proof': 'packages/proof/src/cli.ts',
}

const [name, ...args] = process.argv.slice(2)
const source = COMMANDS[name]
if (!source) {
  console.error(`usage: node scripts/cli.mjs <${Object.keys(COMMANDS).join('|')}> [arguments…]`)
  process.exit(2)
}
const compiled = source.replace('/src/', '/dist/').replace(/\.ts$/, '.js')
const [command, commandArgs] = fs.existsSync(bin('tsx'))
  ? [bin('tsx'), [path.join(root, source), ...args]]
  : [process.execPath, ['--conditions=compiled', path.join(root, compiled), ...args]]
if (command === process.execPath && !fs.existsSync(path.join(root, compiled))) {
  console.error(`${compiled} is missing: build first (npm run build), or install the development tools (npm ci)`)
  process.exit(1)
}
const result = spawnSync(command, commandArgs, { stdio: 'inherit' })
process.exit(result.status ?? 1)
