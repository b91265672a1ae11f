import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'
import { LANGUAGES, WEB_PRELOADS_FILE, type WebPreloads } from '@solpledge/contract'
import { adminApi } from '@solpledge/contract/admin'
import { build, type Manifest } from 'vite'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CONSOLE, SCREENS } from './screens.ts'

const webRoot = fileURLToPath(new URL('../..', import.meta.url))
const CONSOLE_APP = 'src/admin/app/admin-app.tsx'
const isConsoleSource = (file: string) => file.startsWith('src/admin/') || file.startsWith('src/i18n/admin/')

/** Every manifest entry a page loads before any dynamic import: the entry and its static imports, transitively. */
function staticClosure(manifest: Manifest, key: string, seen = new Set<string>()) {
  if (seen.has(key)) return seen
  seen.add(key)
  for (const imported of manifest[key]?.imports ?? []) staticClosure(manifest, imported, seen)
  return seen
}

/**
 * Gzip bytes of the JavaScript every page loads before it can paint anything of its own
 * (docs/benchmarks.md#benchweb--the-first-screen-on-a-phone): the entry chunk and its static imports. 78 kB at the time
 * of writing (Preact as React, React Router, i18next, TanStack Query, the API client); raise it only knowingly.
 */
const ENTRY_BUDGET_GZIP = 85_000
/** The same plus the largest language chunk and the home screen's chunks: what `/` loads before its first paint. */
const FIRST_PAINT_BUDGET_GZIP = 120_000

const languageStrings = (language: string) =>
  (
    JSON.parse(fs.readFileSync(path.join(webRoot, `src/i18n/${language}.json`), 'utf8')) as {
      home: { tagline: string }
    }
  ).home.tagline

/** A production build (the real vite config, into a throwaway folder), shared by the checks below. */
const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'solpledge-web-build-'))
let manifest: Manifest
beforeAll(async () => {
  // Vitest runs with NODE_ENV=test, which would build React's development code: build as production does.
  const nodeEnv = process.env.NODE_ENV
  process.env.NODE_ENV = 'production'
  try {
    await build({ root: webRoot, logLevel: 'silent', build: { outDir, manifest: true, emptyOutDir: true } })
  } finally {
    process.env.NODE_ENV = nodeEnv
  }
  manifest = JSON.parse(fs.readFileSync(path.join(outDir, '.vite/manifest.json'), 'utf8')) as Manifest
}, 180_000)
afterAll(() => fs.rmSync(outDir, { recursive: true, force: true }))

/** The files of a manifest entry (the entry chunk by default) and of everything it imports statically. */
const closureFiles = (key = 'index.html') =>
  [...staticClosure(manifest, key)].map((entry) => manifest[entry]?.file ?? '')
const upFrontFiles = () => closureFiles()
const read = (file: string) => fs.readFileSync(path.join(outDir, file), 'utf8')
const gzipBytes = (files: Iterable<string>) =>
  [...files]
    .filter((file) => file.endsWith('.js'))
    .reduce((sum, file) => sum + gzipSync(fs.readFileSync(path.join(outDir, file))).length, 0)

describe("the users' entry chunk", () => {
  it(`stays within ${ENTRY_BUDGET_GZIP / 1000} kB of gzip JavaScript`, () => {
    const bytes = gzipBytes(upFrontFiles())
    expect(bytes).toBeGreaterThan(30_000)
    expect(bytes).toBeLessThanOrEqual(ENTRY_BUDGET_GZIP)
  })

  it(`with a language and the home screen, stays within ${FIRST_PAINT_BUDGET_GZIP / 1000} kB of gzip JavaScript`, () => {
    const firstPaint = (language: string) =>
      gzipBytes(
        new Set([
          ...upFrontFiles(),
          ...closureFiles('src/app/routes/home.tsx'),
          ...closureFiles(`src/i18n/bundles/${language}.ts`),
        ]),
      )
    const bytes = Math.max(...LANGUAGES.map(firstPaint))
    expect(bytes).toBeGreaterThan(gzipBytes(upFrontFiles()) + 5_000)
    expect(bytes).toBeLessThanOrEqual(FIRST_PAINT_BUDGET_GZIP)
  })

  it("carries no language's strings: each language is a chunk of its own, loaded when needed", () => {
    const upFront = upFrontFiles().map(read).join('\n')
    const chunks = fs.readdirSync(path.join(outDir, 'assets')).filter((file) => file.endsWith('.js'))
    for (const language of LANGUAGES) {
      const tagline = languageStrings(language)
      expect(upFront, language).not.toContain(tagline)
      expect(
        chunks.filter((file) => read(`assets/${file}`).includes(tagline)),
        language,
      ).toHaveLength(1)
    }
  })

  it('carries no schema runtime (TypeBox), nor the wallet adapter or the chain library', () => {
    const upFront = upFrontFiles().map(read).join('\n')
    expect(upFront).not.toContain('~kind')
    expect(upFront).not.toContain('WalletProvider')
    expect(upFront).not.toContain('PhantomWalletAdapter')
    expect(upFront).not.toContain('getMultipleAccountsInfo')
  })

  it('is served pre-compressed: a .br and a .gz beside each of its files (but the tiniest)', () => {
    const worthIt = (file: string) => fs.statSync(path.join(outDir, file)).size >= 1024
    for (const file of [...upFrontFiles(), 'index.html'].filter(worthIt)) {
      expect(fs.existsSync(path.join(outDir, `${file}.br`)), file).toBe(true)
      expect(fs.existsSync(path.join(outDir, `${file}.gz`)), file).toBe(true)
    }
  })
})

/** What the build writes for the server to name in the page (vite.config.ts, screenPreloads). */
describe("the screens' preload list", () => {
  const preloads = () => JSON.parse(fs.readFileSync(path.join(outDir, WEB_PRELOADS_FILE), 'utf8')) as WebPreloads

  it('names, for every screen and the console, its own chunk and what it imports beyond the entry', () => {
    const { screens } = preloads()
    expect(screens.map((screen) => screen.path)).toEqual([CONSOLE, ...SCREENS].map((screen) => screen.path))
    const upFront = new Set(upFrontFiles())
    for (const [index, screen] of [CONSOLE, ...SCREENS].entries()) {
      const own = manifest[`src/${screen.module}`]?.file
      const listed = screens[index]
      expect(listed?.scripts[0], screen.path).toBe(own)
      expect(new Set(listed?.scripts), screen.path).toEqual(
        new Set(closureFiles(`src/${screen.module}`).filter((file) => !upFront.has(file))),
      )
    }
  })

  it('names one chunk per language, and only files the build wrote', () => {
    const { screens, languages } = preloads()
    expect(Object.keys(languages).sort()).toEqual([...LANGUAGES].sort())
    for (const language of LANGUAGES) expect(languages[language]?.scripts).toHaveLength(1)
    const named = [
      ...screens.flatMap((screen) => [...screen.scripts, ...screen.styles]),
      ...Object.values(languages).flatMap((needs) => needs.scripts),
    ]
    for (const file of named) expect(fs.existsSync(path.join(outDir, file)), file).toBe(true)
  })
})

describe('the proof-of-liabilities verifier', () => {
  it('is a chunk of its own, loaded only when the assets screen verifies a proof', () => {
    const chunks = fs
      .readdirSync(path.join(outDir, 'assets'))
      .filter((file) => file.endsWith('.js') && read(`assets/${file}`).includes('solpledge-pol-v1'))
    expect(chunks).toHaveLength(1)
    const assetsScreen = closureFiles('src/features/assets/components/assets-screen.tsx')
    expect(assetsScreen.length).toBeGreaterThan(0)
    expect([...upFrontFiles(), ...assetsScreen]).not.toContain(`assets/${chunks[0]}`)
  })
})

describe('the chart library', () => {
  it("is a chunk of its own that only the charts' canvases load: no screen brings it up front", () => {
    const file = Object.values(manifest).find((chunk) => chunk.file.includes('lightweight-charts'))?.file
    expect(file, 'lightweight-charts in a chunk of its own').toBeTruthy()
    for (const screen of [CONSOLE, ...SCREENS])
      expect(closureFiles(`src/${screen.module}`), screen.path).not.toContain(file)
    // The canvases import it statically, and the screens import the canvases only when they draw.
    for (const canvas of [
      'src/features/trade/components/chart-canvas.tsx',
      'src/components/history-chart-canvas.tsx',
    ]) {
      expect(manifest[canvas]?.isDynamicEntry, canvas).toBe(true)
      expect(closureFiles(canvas), canvas).toContain(file)
    }
  })
})

/**
 * The operator console is its own lazily loaded chunk: the build must not put any of its code or strings
 * into what a user's page loads up front.
 */
describe('the operator console chunk', () => {
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

  it("carries the console's route table, which the users' entry does not", () => {
    const paths = Object.values(adminApi).map((route) => route.path)
    const upFront = upFrontFiles().map(read).join('\n')
    for (const route of paths) expect(upFront, route).not.toContain(route)
    const consoleCode = closureFiles(CONSOLE_APP).map(read).join('\n')
    for (const route of paths) expect(consoleCode, route).toContain(route)
  })
})
