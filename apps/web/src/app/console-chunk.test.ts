import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { build, type Manifest } from 'vite'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

const webRoot = fileURLToPath(new URL('../..', import.meta.url))
const CONSOLE_APP = 'src/features/admin/admin-app.tsx'
const isConsoleSource = (file: string) => file.startsWith('src/features/admin/') || file.startsWith('src/i18n/admin/')

/** Every manifest entry a page loads before any dynamic import: the entry and its static imports, transitively. */
function staticClosure(manifest: Manifest, key: string, seen = new Set<string>()) {
  if (seen.has(key)) return seen
  seen.add(key)
  for (const imported of manifest[key]?.imports ?? []) staticClosure(manifest, imported, seen)
  return seen
}

/**
 * The operator console is its own lazily loaded chunk (issue 7): a production build (the real vite config, into a
 * throwaway folder) must not put any of its code or strings into what a user's page loads up front.
 */
describe('the operator console chunk', () => {
  const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'solpledge-web-build-'))
  let manifest: Manifest

  beforeAll(async () => {
    await build({ root: webRoot, logLevel: 'silent', build: { outDir, manifest: true, emptyOutDir: true } })
    manifest = JSON.parse(fs.readFileSync(path.join(outDir, '.vite/manifest.json'), 'utf8')) as Manifest
  }, 120_000)
  afterAll(() => fs.rmSync(outDir, { recursive: true, force: true }))

  it('is a dynamic entry of its own', () => {
    expect(manifest[CONSOLE_APP]?.isDynamicEntry).toBe(true)
  })

  it("is not in the users' entry chunk nor in anything it imports statically", () => {
    const entry = manifest['index.html']
    expect(entry?.isEntry).toBe(true)
    const upFront = [...staticClosure(manifest, 'index.html')]
    expect(upFront.length).toBeGreaterThan(0)
    expect(upFront.filter(isConsoleSource)).toEqual([])
    // The chunks' own files too: a module inlined into a shared chunk has no manifest key of its own.
    const files = upFront.map((key) => manifest[key]?.file ?? '')
    const consoleFile = manifest[CONSOLE_APP]?.file
    expect(consoleFile).toBeTruthy()
    expect(files).not.toContain(consoleFile)
    for (const file of files) expect(fs.readFileSync(path.join(outDir, file), 'utf8')).not.toContain('admin-login')
  })
})
