// bench/web: builds the web app, serves it with the production server (local chain, PGlite) and reports, for /,
// /pledge and /assets, the JavaScript and CSS a phone loads before the screen paints and before the page is
// interactive (bytes on the wire and gzip), then the Lighthouse 12.2.3 mobile scores (simulated throttling) in
// Debian's Chromium. The server runs once as production runs (no demo wallet: a visitor without a wallet) and, with
// --demo, as `npm start` runs on the local chain (the demo wallet makes every visitor a wallet holder).
// Usage: npm run bench:web [-- --demo --runs 1 --pages /,/pledge,/assets --reuse-build --json bench/results/web.json
//        --reports DIR]
import { execFileSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { gzipSync } from 'node:zlib'
import { ed25519 } from '@noble/curves/ed25519'
import { chromium } from '@playwright/test'
import { GENESIS_HASHES } from '../../apps/server/src/chain/cluster.ts'
import { localnetTokens } from '../../apps/server/src/chain/localnet.ts'
import { addressOf } from '../../apps/server/src/lib/keys.ts'
import { startServer } from '../../e2e/server.ts'
// @ts-expect-error plain ESM helpers shared with the npm scripts
import { bin, freePort, must, root, startService, stopChild } from '../../scripts/lib.mjs'

const { values } = parseArgs({
  options: {
    demo: { type: 'boolean', default: false },
    runs: { type: 'string', default: '1' },
    /** The pages measured, comma-separated (default all three). */
    pages: { type: 'string', default: '/,/pledge,/assets' },
    /** Measure the web app already built in apps/web/dist (built only when there is none). */
    'reuse-build': { type: 'boolean', default: false },
    json: { type: 'string' },
    reports: { type: 'string' },
  },
})
const PAGES = values.pages.split(',')
const CHROMIUM = '/usr/bin/chromium'
const CHROME_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run']
const dist = path.join(root, 'apps/web/dist')

interface Bytes {
  wire: number
  gzip: number
}
const kb = (n: number) => (n / 1000).toFixed(1)

if (!values['reuse-build'] || !fs.existsSync(path.join(dist, 'index.html')))
  must('npm', ['run', 'build', '-w', 'apps/web'], { cwd: root })

/** Gzip size of a built file, as the entry-chunk test counts it. */
const gzipOf = (urlPath: string) => gzipSync(fs.readFileSync(path.join(dist, urlPath))).length

/** JS and CSS fetched from the server until `until` resolves, split by type, on the wire (brotli) and gzip. */
async function assetBytes(url: string) {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROME_FLAGS })
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true })
  const page = await context.newPage()
  const seen: { path: string; wire: number }[] = []
  page.on('requestfinished', async (request) => {
    const { pathname } = new URL(request.url())
    if (!/\.(js|css)$/.test(pathname)) return
    const sizes = await request.sizes().catch(() => null)
    seen.push({ path: pathname, wire: sizes?.responseBodySize ?? 0 })
  })
  const sum = (kind: 'js' | 'css', list: typeof seen): Bytes =>
    list
      .filter((entry) => entry.path.endsWith(`.${kind}`))
      .reduce((total, entry) => ({ wire: total.wire + entry.wire, gzip: total.gzip + gzipOf(entry.path) }), {
        wire: 0,
        gzip: 0,
      })
  await page.goto(url)
  await page.getByTestId('page-title').waitFor()
  const painted = [...seen]
  await page.waitForLoadState('networkidle')
  const result = {
    paint: { js: sum('js', painted), css: sum('css', painted) },
    interactive: { js: sum('js', seen), css: sum('css', seen) },
  }
  await browser.close()
  return result
}

function lighthouse(url: string, attempts = 4) {
  const out = path.join(os.tmpdir(), `solpledge-lh-${Date.now()}.json`)
  try {
    execFileSync(
      bin('lighthouse'),
      [
        url,
        '--quiet',
        '--output=json',
        `--output-path=${out}`,
        '--only-categories=performance,accessibility,best-practices,seo',
        `--chrome-flags=${CHROME_FLAGS.join(' ')}`,
      ],
      { env: { ...process.env, CHROME_PATH: CHROMIUM }, stdio: ['ignore', 'ignore', 'inherit'] },
    )
  } catch (error) {
    // Lighthouse now and then fails to record a page load with headless Chromium (NO_NAVSTART): measure it again.
    if (attempts > 1) return lighthouse(url, attempts - 1)
    throw error
  }
  const report = JSON.parse(fs.readFileSync(out, 'utf8')) as {
    categories: Record<string, { score: number | null }>
    audits: Record<string, { numericValue?: number }>
  }
  // --reports DIR keeps each Lighthouse report (its diagnostics: layout shifts, long tasks, the critical chain).
  if (values.reports) {
    fs.mkdirSync(values.reports, { recursive: true })
    fs.copyFileSync(
      out,
      path.join(values.reports, `${new URL(url).pathname.replace(/\W/g, '_') || 'root'}-${Date.now()}.json`),
    )
  }
  fs.rmSync(out, { force: true })
  const score = (name: string) => Math.round((report.categories[name]?.score ?? 0) * 100)
  const ms = (name: string) => Math.round(report.audits[name]?.numericValue ?? Number.NaN)
  return {
    performance: score('performance'),
    accessibility: score('accessibility'),
    bestPractices: score('best-practices'),
    seo: score('seo'),
    fcpMs: ms('first-contentful-paint'),
    lcpMs: ms('largest-contentful-paint'),
    tbtMs: ms('total-blocking-time'),
    speedIndexMs: ms('speed-index'),
    cls: (report.audits['cumulative-layout-shift']?.numericValue ?? Number.NaN).toFixed(3),
  }
}

const [rpcPort, wsPort] = [await freePort(), await freePort()]
const localnet = await startService(
  'localnet',
  bin('tsx'),
  [
    'packages/localnet/src/cli.ts',
    '--port',
    String(rpcPort),
    '--ws-port',
    String(wsPort),
    // Without --demo the server starts as on devnet, and checks at start that its RPC serves devnet.
    ...(values.demo ? [] : ['--genesis-hash', GENESIS_HASHES.devnet as string]),
  ],
  { ready: /localnet ready rpc=(\S+) ws=(\S+)/, quiet: true },
)
const [rpcUrl, wsUrl] = [localnet.match[1] as string, localnet.match[2] as string]
// Without --demo the server runs as production does on another cluster (with the local chain's mints and its own
// keys and addresses), so it offers no demo wallet: what a production visitor gets.
const mint = async (symbol: string) =>
  (await localnetTokens(rpcUrl)).find((token) => token.symbol === symbol)?.mint ?? ''
const randomAddress = () => addressOf(ed25519.getPublicKey(randomBytes(32)))
const port = String(await freePort())
const production = {
  SOLPLEDGE_LOCAL_CHAIN: '0',
  SOLANA_CLUSTER: 'devnet',
  SOLANA_PUBLIC_RPC_URL: rpcUrl,
  SOLANA_PUBLIC_WS_URL: wsUrl,
  PRODUCT_MINT: await mint('PLG'),
  USDT_MINT: await mint('USDT'),
  TREASURY_ADDRESS: randomAddress(),
  HOT_WALLET_KEY: JSON.stringify([...randomBytes(32)]),
  ROOT_ADDRESS: randomAddress(),
  PORT: port,
  PUBLIC_URL: `http://127.0.0.1:${port}`,
}
const server = await startServer(rpcUrl, wsUrl, values.demo ? {} : production)
const rows = []
try {
  for (let run = 1; run <= Number(values.runs); run++) {
    for (const pagePath of PAGES) {
      const url = `${server.url}${pagePath}`
      const bytes = await assetBytes(url)
      // The machine's 1-minute load average as Lighthouse starts: its simulated throttling scales what it observes, so
      // a loaded machine reads worse (docs/benchmarks.md).
      const load = Number((os.loadavg()[0] ?? 0).toFixed(1))
      const scores = lighthouse(url)
      rows.push({ run, page: pagePath, load, ...bytes, ...scores })
      console.log(
        [
          `run ${run} ${pagePath.padEnd(8)} load ${load}`,
          `JS before paint ${kb(bytes.paint.js.wire)} kB wire / ${kb(bytes.paint.js.gzip)} kB gzip`,
          `CSS ${kb(bytes.paint.css.wire)} / ${kb(bytes.paint.css.gzip)}`,
          `JS before interactive ${kb(bytes.interactive.js.wire)} / ${kb(bytes.interactive.js.gzip)}`,
          `CSS ${kb(bytes.interactive.css.wire)} / ${kb(bytes.interactive.css.gzip)}`,
          `Lighthouse perf ${scores.performance} a11y ${scores.accessibility} bp ${scores.bestPractices} seo ${scores.seo}`,
          `FCP ${scores.fcpMs} ms LCP ${scores.lcpMs} ms TBT ${scores.tbtMs} ms SI ${scores.speedIndexMs} ms CLS ${scores.cls}`,
        ].join(' | '),
      )
    }
  }
} finally {
  await server.stop()
  await stopChild(localnet.child)
}
if (values.json) fs.writeFileSync(values.json, JSON.stringify({ demo: values.demo, rows }, null, 2))
