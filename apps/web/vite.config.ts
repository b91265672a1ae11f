import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'
import react from '@vitejs/plugin-react'
import { defineConfig, type Plugin, type Rolldown } from 'vite'
// The contract's plain constants by path: Vite loads this file with Node, which runs no TypeScript from packages.
import { WEB_PRELOADS_FILE, type WebPreloads } from '../../packages/contract/src/constants.ts'
import { pwa } from './build/pwa.ts'
import { CONSOLE, SCREENS } from './src/app/screens.ts'

// In development (`vite` on its own port) the API and the uploaded images (notice bodies link /uploads/…) come from
// the server.
const server = 'http://127.0.0.1:3000'

/** Text files worth compressing; images and fonts here are compressed formats already (except SVG). */
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|xml|webmanifest)$/

/**
 * Writes a brotli (.br, quality 11) and a gzip (.gz, level 9) copy beside every compressible file of the build, so
 * the server sends them by content negotiation (@fastify/static preCompressed) without compressing per request.
 * Copies that would not be smaller are not written.
 */
function precompress(): Plugin {
  let outDir = ''
  return {
    name: 'solpledge:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir)
    },
    closeBundle() {
      for (const entry of fs.readdirSync(outDir, { recursive: true, withFileTypes: true })) {
        // .vite/ holds what the build writes for the server, never served.
        if (!entry.isFile() || !COMPRESSIBLE.test(entry.name) || entry.parentPath.includes(`${path.sep}.vite`)) continue
        const file = path.join(entry.parentPath, entry.name)
        const text = fs.readFileSync(file)
        const br = brotliCompressSync(text, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } })
        const gz = gzipSync(text, { level: 9 })
        if (br.length < text.length) fs.writeFileSync(`${file}.br`, br)
        if (gz.length < text.length) fs.writeFileSync(`${file}.gz`, gz)
      }
    },
  }
}

/**
 * Puts the entry's stylesheets into index.html (<style>; the CSP allows inline styles, not scripts), so the first
 * paint waits for the document alone, not for a stylesheet request too. Each <link> stays, disabled (never fetched):
 * the lazy chunks' loader looks for it before adding a stylesheet, and must find these as loaded already.
 */
function inlineEntryCss(): Plugin {
  return {
    name: 'solpledge:inline-entry-css',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler: (html, { bundle }) =>
        html.replace(/<link rel="stylesheet" crossorigin href="\/(assets\/[^"]+\.css)">/g, (link, file: string) => {
          const asset = bundle?.[file]
          if (asset?.type !== 'asset') return link
          return `<style>${String(asset.source)}</style>${link.replace('>', ' disabled>')}`
        }),
    },
  }
}

/**
 * Writes, for each screen (src/app/screens.ts) and each language's strings, the chunks and stylesheets it needs
 * beyond the entry's: the server names the ones of the page's path and of the browser's language in the page
 * (apps/server/src/plugins/web-app.ts), so a phone fetches them together with the entry instead of after it has run.
 * Fills `appShell` with the entry's files and the languages' (what the service worker precaches: build/pwa.ts).
 */
function screenPreloads(appShell: Set<string>): Plugin {
  let root = ''
  let outDir = ''
  return {
    name: 'solpledge:screen-preloads',
    apply: 'build',
    configResolved(config) {
      root = config.root
      outDir = path.resolve(config.root, config.build.outDir)
    },
    // The written bundle: Vite drops the chunks that only carried a stylesheet after generateBundle.
    writeBundle(_, bundle) {
      const chunks = Object.values(bundle).filter((item): item is Rolldown.OutputChunk => item.type === 'chunk')
      const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]))
      const closure = (chunk: Rolldown.OutputChunk, seen = new Set<string>()) => {
        if (seen.has(chunk.fileName)) return seen
        seen.add(chunk.fileName)
        for (const file of chunk.imports) {
          const imported = byFile.get(file)
          if (imported) closure(imported, seen)
        }
        return seen
      }
      const entry = chunks.find((chunk) => chunk.isEntry)
      if (!entry) throw new Error('The build has no entry chunk')
      const upFront = closure(entry)
      const needs = (chunk: Rolldown.OutputChunk) => {
        const scripts = [...closure(chunk)].filter((file) => !upFront.has(file))
        const styles = scripts.flatMap((file) => [...(byFile.get(file)?.viteMetadata?.importedCss ?? [])])
        return { scripts, styles }
      }
      const ofModule = (module: string) => {
        const chunk = chunks.find((item) => item.facadeModuleId === path.join(root, 'src', module))
        if (!chunk) throw new Error(`No chunk for ${module}`)
        return needs(chunk)
      }
      const languages = chunks.flatMap((chunk) => {
        const language = /[\\/]src[\\/]i18n[\\/]bundles[\\/](\w+)\.ts$/.exec(chunk.facadeModuleId ?? '')?.[1]
        return language ? [[language, needs(chunk)] as const] : []
      })
      const preloads: WebPreloads = {
        screens: [CONSOLE, ...SCREENS].map(({ path: pattern, module }) => ({ path: pattern, ...ofModule(module) })),
        languages: Object.fromEntries(languages),
      }
      for (const file of [...upFront, ...languages.flatMap(([, files]) => files.scripts)]) appShell.add(file)
      const file = path.join(outDir, WEB_PRELOADS_FILE)
      fs.mkdirSync(path.dirname(file), { recursive: true })
      fs.writeFileSync(file, `${JSON.stringify(preloads, null, 2)}\n`)
    },
  }
}

// React's API from Preact (preact/compat, ≈11 kB gzip where react-dom is ≈57 kB): the whole app and its libraries
// (React Router, TanStack Query, motion, the wallet adapter) run on it; the sources keep React's imports and types.
const preactCompat = [
  { find: /^react$/, replacement: 'preact/compat' },
  { find: /^react-dom$/, replacement: 'preact/compat' },
  { find: /^react-dom\/client$/, replacement: 'preact/compat/client' },
  { find: /^react\/jsx-runtime$/, replacement: 'preact/jsx-runtime' },
  { find: /^react\/jsx-dev-runtime$/, replacement: 'preact/jsx-dev-runtime' },
]

/** `@/lib/api-client.ts` is apps/web/src/lib/api-client.ts (as tsconfig.json's paths and vitest.config.ts say). */
const srcAlias = { find: /^@\//, replacement: fileURLToPath(new URL('./src/', import.meta.url)) }

// The wallet and chain code (@solana/*, the demo wallet) are reached only through dynamic imports
// (src/app/bootstrap.tsx), so they land in lazily loaded chunks and the first screen stays small;
// src/app/entry-chunk.test.ts holds the entry chunk to its budget.
const appShell = new Set<string>()

export default defineConfig({
  plugins: [react(), inlineEntryCss(), screenPreloads(appShell), precompress(), ...pwa(appShell)],
  resolve: { alias: [srcAlias, ...preactCompat] },
  build: {
    rolldownOptions: {
      output: {
        // The libraries every screen needs, in one chunk: a phone on HTTP/1.1 fetches a few files before it can paint
        // instead of a dozen small ones, each waiting for a free connection.
        codeSplitting: {
          groups: [
            {
              name: 'vendor',
              test: /node_modules[\\/](preact|@tanstack[\\/](query-core|react-query)|react-router|i18next|react-i18next)[\\/]/,
            },
            {
              // Everything of the app the entry imports (the shell, the start-up code, the query options of the
              // screens' public data it asks for at once): one file, not a dozen small ones.
              name: 'shell',
              tags: ['$initial'],
              test: /apps[\\/]web[\\/]src[\\/]/,
            },
            {
              // The small modules the lazy screens share, the payment hook's light part among them (not the
              // motion-animated modal frame, the history charts' canvas, the chain balances or the payment's run:
              // they would bring the animation, chart or chain library with them).
              name: 'shared',
              test: /apps[\\/]web[\\/]src[\\/](components[\\/](?!modal-frame|history-chart-canvas)|lib[\\/]((?!chain-balances)[^\\/]+|payment[\\/](use-payment|payment-outcome|payment-error)\.ts)$)/,
            },
          ],
        },
      },
    },
  },
  server: {
    proxy: { '/api': server, '/uploads': server },
  },
})
