import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'
import { checkReferences, slug } from './check-references.mjs'

const roots = []
/** A repository tree of the given files (path → text) in a temporary folder (not a git work tree: every file counts). */
function tree(files) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'references-'))
  roots.push(root)
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true })
    fs.writeFileSync(path.join(root, file), text)
  }
  return root
}
afterEach(() => {
  for (const root of roots.splice(0)) fs.rmSync(root, { recursive: true, force: true })
})

const docs = {
  'docs/product.md': '# Product\n\n## Calls\n\n### Spec paths\n\n## Flows\n\n### Login\n',
  'docs/design.md':
    '# Design\n\n## Money and the ledger\n\n### Inflows: payment intents\n\n### `engine.ts` — the book\n',
}
const clean = {
  ...docs,
  'apps/server/src/a.ts': '// Sign-in (docs/product.md#login): the nonce, docs/design.md#inflows-payment-intents.\n',
  'docs/guide.md': 'See [product.md](product.md#spec-paths) and [design.md](design.md#enginets--the-book); the spec.\n',
  'README.md': 'Start with [docs/design.md](docs/design.md#money-and-the-ledger).\n',
}

// The refused words are put together here, so that this file does not spell what the rule refuses.
const CAPS = ['SP', 'EC'].join('')
const SECTION = '\u00a7'
const DESIGN = `${['DES', 'IGN'].join('')}.md`
const ENVIRONMENT = `${['ENVIRON', 'MENT'].join('')}.md`
const ISSUE = ['iss', 'ue'].join('')

describe('check-references', () => {
  it('passes a tree that links its own docs', () => {
    expect(checkReferences(tree(clean))).toEqual([])
  })

  it.each([
    ['the specification with a section', `// Login (${CAPS} ${SECTION}4): the nonce.`, `"${CAPS}"`],
    ['a section sign alone', `// Login (${SECTION}4): the nonce.`, `"${SECTION}4"`],
    ['the specification without a section', `// Nodes (${CAPS} node levels).`, `"${CAPS}"`],
    ['the design file', `// The ledger (${DESIGN} ${SECTION}4).`, `"${DESIGN}"`],
    ['the environment file', `// Stays small (${ENVIRONMENT}).`, `"${ENVIRONMENT}"`],
    ['the shared folder', '// See /work/shared for the rules.', '"/work/shared"'],
    ['an issue number', `it('the ${ISSUE} 12 cases', () => {})`, `"${ISSUE} 12"`],
    ['a capitalised issue number', `* I${ISSUE.slice(1)} 14: every route.`, `"I${ISSUE.slice(1)} 14"`],
    ['an issue with a hash', `// Fixed in ${ISSUE} #30.`, `"${ISSUE} #30"`],
  ])('refuses %s', (_, line, found) => {
    const problems = checkReferences(tree({ ...clean, 'apps/web/src/b.ts': `const a = 1\n${line}\n` }))
    expect(problems).toHaveLength(1)
    expect(problems[0]).toMatch(new RegExp(`^apps/web/src/b\\.ts:2: ${found.replace(/[.#$]/g, '\\$&')} points outside`))
  })

  it('refuses a reference in a doc too, and leaves "the spec" in prose alone', () => {
    const problems = checkReferences(
      tree({ ...clean, 'docs/x.md': `As the spec says.\n\nFirst screen (${ISSUE} 13).\n` }),
    )
    expect(problems).toEqual([expect.stringMatching(new RegExp(`^docs/x\\.md:3: "${ISSUE} 13" points outside`))])
  })

  it.each([
    ['a repository path to a missing doc', 'apps/a.ts', '// docs/nope.md#login', 'docs/nope.md does not exist'],
    [
      'a repository path to a missing heading',
      'apps/a.ts',
      '// docs/product.md#logon',
      'docs/product.md has no heading #logon',
    ],
    [
      'a relative link to a missing heading',
      'docs/y.md',
      '[p](product.md#staking)',
      'docs/product.md has no heading #staking',
    ],
    ['a relative link to a missing doc', 'docs/y.md', '[p](../README2.md)', 'README2.md does not exist'],
    [
      'a link from the root resolved from the root',
      'README.md',
      '[d](design.md#the-ledger)',
      'design.md does not exist',
    ],
  ])('refuses %s', (_, file, line, message) => {
    expect(checkReferences(tree({ ...clean, [file]: `${line}\n` }))).toEqual([`${file}:1: ${message}`])
  })

  it('spells anchors as GitHub does', () => {
    expect(slug('Inflows: payment intents')).toBe('inflows-payment-intents')
    expect(slug('bench/web — the first screen on a phone')).toBe('benchweb--the-first-screen-on-a-phone')
    expect(slug('Payment intents (`apps/server/src/modules/intents`)')).toBe(
      'payment-intents-appsserversrcmodulesintents',
    )
    expect(slug('What the spec left open and what we decided')).toBe('what-the-spec-left-open-and-what-we-decided')
    expect(slug('See [admin.md](admin.md)')).toBe('see-adminmd')
  })

  // The probe: the real command, on a copy of a clean tree with one reference planted, exits 1 and names it.
  it('npm run lint fails on a planted reference', () => {
    const script = fileURLToPath(new URL('./check-references.mjs', import.meta.url))
    const root = tree({ ...clean, 'apps/server/src/planted.ts': `// Nodes (${CAPS} ${SECTION}6).\n` })
    let failure
    try {
      execFileSync(process.execPath, [script, root], { encoding: 'utf8', stdio: 'pipe' })
    } catch (error) {
      failure = error
    }
    expect(failure?.status).toBe(1)
    expect(failure?.stderr).toContain(`apps/server/src/planted.ts:1: "${CAPS}" points outside the repository`)
    const lint = JSON.parse(fs.readFileSync(new URL('../package.json', import.meta.url), 'utf8')).scripts.lint
    expect(lint).toContain('node scripts/check-references.mjs')
  })
})
