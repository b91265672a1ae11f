import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'
import react from '@vitejs/plugin-react'
import { defineConfig, type Plugin } from 'vite'

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
        if (!entry.isFile() || !COMPRESSIBLE.test(entry.name)) continue
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
// (src/app/bootstrap.tsx), so they land in lazily loaded chunks and the first screen stays small (ENVIRONMENT.md);
// src/app/entry-chunk.test.ts holds the entry chunk to its budget.
export default defineConfig({
  plugins: [react(), inlineEntryCss(), precompress()],
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
              // The shell's own small modules shared by the screens (not the motion-animated modal frame, not the
              // chain balances: they would bring the animation or chain library with them).
              name: 'shell',
              test: /apps[\\/]web[\\/]src[\\/](components[\\/](?!modal-frame)|lib[\\/](?!chain-balances)[^\\/]+$)/,
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
