import fs from 'node:fs'
import { ed25519 } from '@noble/curves/ed25519'
import {
  type Browser,
  type BrowserContext,
  test as base,
  expect,
  type Locator,
  type Page,
  type Request,
  type TestInfo,
} from '@playwright/test'
import { API_BASE, api, CLIENT_CONFIG_ELEMENT, LOGIN_TYPE, type RouteDef } from '@solpledge/contract'
import { createDemoWalletStorageValue, DEMO_WALLET_STORAGE_KEY, encodeBase58 } from '@solpledge/demo-wallet'
import { type Prompt, testWalletScript } from '@solpledge/test-wallet'
import { type StartedInstances, startInstances, startServer } from './server.ts'

export const baseUrl = () => process.env.E2E_BASE_URL as string
export const rootAddress = () => process.env.E2E_ROOT_ADDRESS as string
export const operatorToken = () => process.env.E2E_OPERATOR_TOKEN as string

/**
 * Records the text of every success and error toast as it appears (information on the way, e.g. during a payment, is
 * left out), so that a check misses none that came and went (see takeToasts).
 */
function recordToasts() {
  const seen: string[] = []
  Object.assign(window, { e2eToasts: seen })
  const record = (element: Element) => {
    if (!element.classList.contains('toast-info')) seen.push(element.textContent ?? '')
  }
  new MutationObserver((records) => {
    for (const { addedNodes } of records)
      addedNodes.forEach((node) => {
        if (!(node instanceof Element)) return
        if (node.matches('[data-testid="toast"]')) record(node)
        node.querySelectorAll('[data-testid="toast"]').forEach(record)
      })
  }).observe(document, { childList: true, subtree: true })
}

/** The Content-Security-Policy violations of each running test's pages (secondPhone adds its own page's). */
const violationsOf = new WeakMap<TestInfo, string[]>()

/**
 * Records every Content-Security-Policy violation in the context's pages as the browser reports it to the page
 * (securitypolicyviolation events reach the document from shadow roots too), from before the page's first script.
 */
async function watchCsp(context: BrowserContext, violations: string[]) {
  await context.exposeBinding('__cspViolation', (_source, text: string) => violations.push(text))
  await context.addInitScript(() => {
    const report = (window as unknown as { __cspViolation: (text: string) => void }).__cspViolation
    document.addEventListener('securitypolicyviolation', (e) =>
      report(`${e.effectiveDirective} refused ${e.blockedURI || 'inline'}${e.sourceFile ? ` (${e.sourceFile})` : ''}`),
    )
  })
}

/** The server a journey runs against: its URL and the root user's address (the invite code of the first users). */
export interface E2eServer {
  url: string
  rootAddress: string
  /** With `ownServer: 'instances'`: two instances behind a proxy (failover.spec.ts), with their own local chain. */
  instances?: StartedInstances['instances']
}

/**
 * Playwright's test against the server that global-setup.ts started, or against a server of the journey's own on the
 * shared local chain when its file says `test.use({ ownServer: '<name>' })`: for journeys that change what the others
 * rely on (the business configuration, the market's price, settled days). A file with its own server runs in workers
 * of its own (the option is part of the worker's identity), where `baseUrl()`, `rootAddress()` and the page's base URL
 * are that server's; it has the same operator token and admin (`adminWallet()`) as the shared one.
 * Its page records every toast it shows, and every journey runs under the server's Content-Security-Policy and fails on
 * any violation (`cspViolations`: what was seen so far).
 */
/**
 * Settings of a named server of its own beyond the shared ones. live.spec.ts waits for the new server's first daily
 * settlement and proof-of-liabilities snapshot (events on the channel) before it counts an idle minute: they come
 * within a pass of their jobs, every 2 s instead of every minute.
 */
const OWN_SERVER_ENV: Record<string, Record<string, string>> = { live: { SETTLEMENT_INTERVAL_MS: '2000' } }

export const test = base.extend<{ cspViolations: string[] }, { ownServer: string | null; server: E2eServer }>({
  ownServer: [null, { scope: 'worker', option: true }],
  server: [
    async ({ ownServer }, use) => {
      if (ownServer === null) return use({ url: baseUrl(), rootAddress: rootAddress() })
      const env = { OPERATOR_TOKEN: operatorToken(), ADMIN_ADDRESSES: `${adminWallet().address}:admin` }
      const instances = ownServer === 'instances' ? await startInstances(env) : null
      // The wallets and chain helpers below read it at each call: the cluster's own chain in this worker.
      if (instances) process.env.E2E_RPC_URL = instances.rpcUrl
      const server =
        instances ??
        (await startServer(process.env.E2E_RPC_URL as string, process.env.E2E_WS_URL as string, {
          ...env,
          ...OWN_SERVER_ENV[ownServer],
        }))
      process.env.E2E_BASE_URL = server.url
      process.env.E2E_ROOT_ADDRESS = server.rootAddress
      await use(server)
      await server.stop()
    },
    { scope: 'worker', auto: true, timeout: 180_000 },
  ],
  baseURL: async ({ server }, use) => use(server.url),
  page: async ({ page }, use) => {
    await page.addInitScript(recordToasts)
    await dismissReceipts(page)
    // A sheet that just closed steps the history back to take its entry away (apps/web/src/lib/modal-history.ts);
    // a page.goto racing that step is aborted by it (net::ERR_ABORTED), as a typed URL would be: load it again.
    const goto = page.goto.bind(page)
    page.goto = async (url, options) => {
      try {
        return await goto(url, options)
      } catch (error) {
        if (!String(error).includes('net::ERR_ABORTED')) throw error
        return goto(url, options)
      }
    }
    await use(page)
  },
  cspViolations: [
    async ({ context }, use, testInfo) => {
      const violations: string[] = []
      violationsOf.set(testInfo, violations)
      await watchCsp(context, violations)
      await use(violations)
      expect(violations, 'Content-Security-Policy violations').toEqual([])
    },
    { auto: true },
  ],
})
export { expect }

/** A wallet keypair the demo wallet can hold (64-byte secret key: seed then public key); a new one unless `seed`. */
export class Wallet {
  readonly publicKey: Uint8Array
  readonly address: string
  constructor(readonly seed = ed25519.utils.randomPrivateKey()) {
    this.publicKey = ed25519.getPublicKey(seed)
    this.address = encodeBase58(this.publicKey)
  }
  get secretKey() {
    const key = new Uint8Array(64)
    key.set(this.seed)
    key.set(this.publicKey, 32)
    return key
  }
}

/** The wallet of the servers' admin (on their ADMIN_ADDRESSES: see global-setup.ts and `test`'s own servers). */
export const adminWallet = () => new Wallet(Buffer.from(process.env.E2E_ADMIN_SEED as string, 'hex'))

async function post(path: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${baseUrl()}/api${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'accept-language': 'en', ...headers },
    body: JSON.stringify(body),
  })
  return (await res.json()) as { code: number; msg: string; data: Record<string, string> }
}

/**
 * Runs the daily settlement through `day` (every day not yet settled up to it) as the operator does. The local chain
 * allows future days, and the settled day then stays ahead for the rest of the run: only journeys that settle may
 * depend on outputs, and their positions must exist before they settle.
 */
export async function settleThrough(day: string) {
  const res = await post(api.settlementRun.path, { day }, { 'Operator-Token': operatorToken() })
  if (res.code !== 1) throw new Error(`settlement through ${day} failed: ${res.msg}`)
  return res.data
}

/**
 * Takes a proof-of-liabilities snapshot now as the operator does (`npm run snapshot-liabilities`; the job takes one
 * after each settled day) and resolves its root, published on chain.
 */
export async function snapshotLiabilities() {
  const res = await post(api.liabilitiesSnapshot.path, {}, { 'Operator-Token': operatorToken() })
  if (res.code !== 1) throw new Error(`liabilities snapshot failed: ${res.msg}`)
  return res.data
}

/** Calls an API path as a user, with the session that register resolves; resolves the whole envelope. */
export const callAs = (session: Record<string, string>, path: string, body: unknown) =>
  post(path, body, { 'User-Token': session.token ?? '', 'User-Address': session.address ?? '' })

/** The server's current UTC day, as a signed-in user sees it (`session`: what register resolves). */
export async function serverToday(session: Record<string, string>) {
  const res = await callAs(session, api.today.path, {})
  if (res.code !== 1) throw new Error(`today failed: ${res.msg}`)
  return res.data.day as string
}

/** The UTC day `days` after `day` (YYYY-MM-DD). */
export const addDays = (day: string, days: number) =>
  new Date(Date.parse(`${day}T00:00:00.000Z`) + days * 86_400_000).toISOString().slice(0, 10)

/**
 * Registers a wallet under an inviter through the API, exactly as the web app's bind does, on the journey's server.
 */
export async function register(wallet: Wallet, inviteCode = rootAddress()) {
  const nonce = await post(api.nonce.path, { address: wallet.address })
  const message = nonce.data.message as string
  const sign = Buffer.from(ed25519.sign(new TextEncoder().encode(message), wallet.seed)).toString('hex')
  const res = await post(api.registerThird.path, {
    type: LOGIN_TYPE,
    address: wallet.address,
    sign,
    invite_code: inviteCode,
    message,
  })
  if (res.code !== 1) throw new Error(`register failed: ${res.msg}`)
  return res.data
}

/**
 * A new user: a wallet registered under the root through the API and held by the page's demo wallet (it signs in
 * on the page's first load). Returns the wallet and its API session.
 */
export async function newUser(page: Page, options: { language?: string } = {}) {
  const wallet = new Wallet()
  const session = await register(wallet)
  await useWallets(page, [wallet], options)
  return { wallet, session }
}

/** A new user (newUser) signed in on `path`. */
export async function signIn(page: Page, path = '/') {
  const user = await newUser(page)
  await page.goto(path)
  await expectLoggedIn(page, user.wallet)
  return user
}

/** Calls a method of the local chain's JSON-RPC (or of the endpoint at `url`); an RPC error throws. */
export async function rpc(method: string, params: unknown[], url = process.env.E2E_RPC_URL as string) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  })
  const body = (await res.json()) as { result?: unknown; error?: { message: string } }
  if (body.error) throw new Error(`${method}: ${body.error.message}`)
  return body.result
}

/** The wallet's on-chain balance of a token, in base units, read straight from the local chain. */
export async function onChainBalance(owner: string, symbol: string): Promise<bigint> {
  const tokens = (await rpc('localnet_getTokens', [])) as { symbol: string; mint: string }[]
  const mint = tokens.find((t) => t.symbol === symbol)?.mint
  const accounts = (await rpc('getTokenAccountsByOwner', [owner, { mint }, { encoding: 'jsonParsed' }])) as {
    value: { account: { data: { parsed: { info: { tokenAmount: { amount: string } } } } } }[]
  }
  return accounts.value.reduce((sum, a) => sum + BigInt(a.account.data.parsed.info.tokenAmount.amount), 0n)
}

/** Gives the page's demo wallet these accounts (the first active) and, optionally, a stored language. */
export async function useWallets(page: Page, wallets: Wallet[], options: { language?: string } = {}) {
  const value = createDemoWalletStorageValue(
    wallets.map((w) => w.secretKey),
    0,
  )
  await page.addInitScript(
    ([key, stored, language]) => {
      // Only on the first load of the page: later reloads keep what the app stored.
      if (sessionStorage.getItem('e2e-seeded')) return
      sessionStorage.setItem('e2e-seeded', '1')
      localStorage.setItem(key as string, stored as string)
      if (language) localStorage.setItem('i18nextLng', language)
    },
    [DEMO_WALLET_STORAGE_KEY, value, options.language ?? ''],
  )
}

export async function storage(page: Page) {
  return page.evaluate(() => ({
    userinfo: localStorage.getItem('userinfo'),
    root: localStorage.getItem('root'),
    token: sessionStorage.getItem('token'),
    language: localStorage.getItem('i18nextLng'),
  }))
}

/** Saves a screenshot of this step of the journey under test-results/e2e/screenshots. */
export async function snap(page: Page, testInfo: TestInfo, step: string) {
  const dir = new URL('../test-results/e2e/screenshots/', import.meta.url)
  fs.mkdirSync(dir, { recursive: true })
  const name = `${testInfo.titlePath.slice(1).join(' - ')} - ${step}`.replace(/[^\w -]+/g, '').replace(/\s+/g, '-')
  const body = await page.screenshot({ path: new URL(`${name}.png`, dir).pathname })
  await testInfo.attach(step, { body, contentType: 'image/png' })
}

export async function expectLoggedIn(page: Page, wallet: Wallet) {
  await expect(page.getByTestId('user-address')).toContainText(wallet.address.slice(0, 4))
  await expect(page.getByTestId('loading-overlay')).toHaveCount(0)
  const stored = await storage(page)
  expect(stored.token).toBeTruthy()
  expect(JSON.parse(stored.userinfo ?? '{}')).toMatchObject({ address: wallet.address, token: stored.token })
  expect(JSON.parse(stored.root ?? '{}')).toMatchObject({ loginStatus: true, isBind: true })
}

/** The toast showing `text`. */
export const toast = (page: Page, text: string) => page.getByTestId('toast').filter({ hasText: text })

/** Another phone in its own browser context, set up as the project's (viewport, touch, locale, motion): a second person. */
export async function secondPhone(browser: Browser, testInfo: TestInfo) {
  const { viewport, isMobile, hasTouch, deviceScaleFactor, locale, reducedMotion } = testInfo.project.use
  const context = await browser.newContext({
    baseURL: baseUrl(),
    viewport,
    isMobile,
    hasTouch,
    deviceScaleFactor,
    locale,
    reducedMotion,
  })
  const violations = violationsOf.get(testInfo)
  if (!violations) throw new Error('secondPhone needs the test of fixtures.ts')
  await watchCsp(context, violations)
  const page = await context.newPage()
  await page.addInitScript(recordToasts)
  await dismissReceipts(page)
  return page
}

const receiptSheet = (page: Page) => page.getByTestId('receipt')

/**
 * Every money action ends in its receipt sheet (apps/web/src/components/receipt-sheet.tsx), which covers the screen
 * until Done. A journey about something else goes on as a person would: the receipt is closed with Done before the
 * next action or assertion (Playwright's locator handler). A journey that checks the receipt calls keepReceipts first.
 */
async function dismissReceipts(page: Page) {
  // Done is tapped at once, without waiting for the sheet to be still or gone: a toast shown with the receipt lives
  // 2 s, and the check that waits for it comes through here first. An action aimed under the fading sheet waits until
  // nothing covers its target, as for any overlay.
  await page.addLocatorHandler(
    receiptSheet(page),
    () =>
      page.evaluate(() =>
        document.querySelector<HTMLElement>('[data-testid="receipt"] [data-testid="receipt-done"]')?.click(),
      ),
    { noWaitAfter: true },
  )
}

/** Leaves receipt sheets open for the journey to check (and close) itself. */
export const keepReceipts = (page: Page) => page.removeLocatorHandler(receiptSheet(page))

/** The texts of the success and error toasts the page showed since it loaded or since the last call, in order. */
export const takeToasts = (page: Page) =>
  page.evaluate(() => (window as unknown as { e2eToasts: string[] }).e2eToasts.splice(0))

/**
 * Taps `button` twice, faster than the app can re-render it disabled: 'dblclick' is the pointer's double click,
 * 'clicks' two clicks in one task of the page (no answer, no render and no timer can come between them).
 */
async function doubleTap(button: Locator, how: 'dblclick' | 'clicks') {
  if (how === 'dblclick') await button.dblclick()
  else
    await button.evaluate((element: HTMLElement) => {
      element.click()
      element.click()
    })
}

/**
 * Double-taps a money button (docs/architecture.md#web-app) and checks that it made exactly one call of `route` and
 * showed exactly one toast, `answer`: nothing twice, no error beside a success. The effect is the caller's to check.
 */
export async function doubleTapOnce(
  page: Page,
  button: Locator,
  { route, how, answer, timeout }: { route: RouteDef; how: 'dblclick' | 'clicks'; answer: string; timeout?: number },
) {
  const path = `${API_BASE}${route.path}`
  let calls = 0
  const count = (request: Request) => {
    if (request.method() === 'POST' && new URL(request.url()).pathname === path) calls++
  }
  page.on('request', count)
  await takeToasts(page)
  await doubleTap(button, how)
  // The toasts the page recorded, not the one on screen: on a loaded machine a toast can come and go while a receipt
  // sheet's locator handler runs, and a wait for it to be visible then misses it.
  const shown: string[] = []
  const recorded = async () => {
    shown.push(...(await takeToasts(page)))
    return shown
  }
  await expect.poll(recorded, { timeout: timeout ?? 15_000 }).toContain(answer)
  page.off('request', count)
  expect(calls, `calls of ${route.path}`).toBe(1)
  expect(await recorded()).toEqual([answer])
}

/**
 * Submits a money form and waits for its review sheet (docs/architecture.md#web-app); resolves the sheet's Confirm
 * button, which makes the money call (e.g. for doubleTapOnce).
 */
export async function openReview(submit: Locator) {
  await submit.click()
  const review = submit.page().getByTestId('review')
  await expect(review).toBeVisible()
  return review.getByTestId('review-confirm')
}

/**
 * Waits until every closed sheet has taken its history entry back (apps/web/src/lib/modal-history.ts does it right
 * after the sheet closes): a page.goto before that would be aborted by the step back.
 */
export async function sheetsSettled(page: Page) {
  await page.waitForFunction(() => !(history.state as Record<string, unknown> | null)?.solpledgeModal)
}

/**
 * Waits until the open sheet has taken its history entry (apps/web/src/lib/modal-history.ts; in the same effects as its
 * Escape key): a sheet is visible a moment before, when Escape would do nothing yet.
 */
export async function sheetReady(page: Page) {
  await page.waitForFunction(() => Boolean((history.state as Record<string, unknown> | null)?.solpledgeModal))
}

/**
 * Goes to `path` inside the running app, as its links do (the router follows the history), so the session stays as
 * it is: a reload would connect the wallet again.
 */
export async function goInApp(page: Page, path: string) {
  await page.evaluate((path) => {
    history.pushState(null, '', path)
    dispatchEvent(new PopStateEvent('popstate'))
  }, path)
  await expect(page).toHaveURL(path)
}

/** Submits a money form and confirms its review sheet: the money call is made. */
export async function submitReviewed(submit: Locator) {
  await (await openReview(submit)).click()
}

/**
 * Records, in the page, every value `attribute` takes on the first element matching `selector` (a MutationObserver,
 * so a state shown for a moment between two checks is not missed); `values()` reads them in order.
 */
export async function recordAttribute(page: Page, selector: string, attribute: string) {
  const key = `${selector}|${attribute}`
  await page.evaluate(
    ([key, selector, attribute]) => {
      const page = window as unknown as { e2eRecorded?: Record<string, string[]> }
      page.e2eRecorded ??= {}
      const values: string[] = []
      page.e2eRecorded[key as string] = values
      const look = () => {
        const value = document.querySelector(selector as string)?.getAttribute(attribute as string)
        if (value != null && values.at(-1) !== value) values.push(value)
      }
      look()
      new MutationObserver(look).observe(document.body, { subtree: true, childList: true, attributes: true })
    },
    [key, selector, attribute],
  )
  return {
    values: () =>
      page.evaluate((key) => (window as unknown as { e2eRecorded: Record<string, string[]> }).e2eRecorded[key], key),
  }
}

/**
 * The live channel's frames the page receives (docs/architecture.md "Live updates"), parsed, from every connection of
 * the page in order: call before the page opens the channel.
 */
export function liveFrames(page: Page) {
  const frames: { type: string; topic?: string; seq?: number; resumed?: boolean; data?: unknown }[] = []
  page.on('websocket', (socket) => {
    if (!socket.url().endsWith('/api/live')) return
    socket.on('framereceived', ({ payload }) => frames.push(JSON.parse(String(payload))))
  })
  return frames
}

/** Resolves once the page has made no request for `ms` (its data loaded): what an idle screen is measured from. */
export async function quiet(page: Page, ms = 2_000) {
  let last = Date.now()
  // Requests already on their way when this starts end unseen: only those started since are waited for.
  const open = new Set<Request>()
  const started = (request: Request) => {
    open.add(request)
    last = Date.now()
  }
  const ended = (request: Request) => {
    if (open.delete(request)) last = Date.now()
  }
  page.on('request', started)
  page.on('requestfinished', ended)
  page.on('requestfailed', ended)
  try {
    await expect.poll(() => open.size === 0 && Date.now() - last >= ms, { timeout: 60_000 }).toBe(true)
  } finally {
    page.off('request', started)
    page.off('requestfinished', ended)
    page.off('requestfailed', ended)
  }
}

/**
 * Puts Wallet Standard test wallets in the page (packages/test-wallet) as a wallet extension does, before the app
 * runs: named 'Phantom' unless told, holding `wallets` (the first active), approving every prompt and recording it.
 */
export async function useTestWallet(page: Page, wallets: Wallet[], options: { name?: string } = {}) {
  const seeds = wallets.map((wallet) => Buffer.from(wallet.seed).toString('hex'))
  const content = await testWalletScript([{ seeds, rpcUrl: process.env.E2E_RPC_URL as string, ...options }])
  await page.addInitScript({ content })
}

/** The prompts the page's test wallet showed its user since the page loaded. */
export const walletPrompts = (page: Page, name = 'Phantom') =>
  page.evaluate(
    (wallet) =>
      (window as unknown as { testWallets?: Record<string, { prompts: Prompt[] }> }).testWallets?.[wallet]?.prompts ??
      [],
    name,
  )

/**
 * The page as production serves it: the same server, with the runtime config saying no demo wallet (only the local
 * chain injects one). A visitor then has the wallets of their own browser only: a test wallet, or none.
 */
export async function withoutDemoWallet(page: Page) {
  await page.route(
    (url) => url.origin === baseUrl() && !/^\/(api|assets|uploads)\/|\.\w+$/.test(url.pathname),
    async (route) => {
      if (route.request().resourceType() !== 'document') return route.fallback()
      const response = await route.fetch()
      const body = (await response.text()).replace(
        new RegExp(`(<script id="${CLIENT_CONFIG_ELEMENT}"[^>]*>[^<]*)"demoWallet":true`),
        '$1"demoWallet":false',
      )
      await route.fulfill({ response, body })
    },
  )
}

/** Resolves once no API call of the page is on its way (each was answered), e.g. after a disconnect. */
export function apiCalls(page: Page) {
  const open = new Set<Request>()
  const api = (request: Request) => new URL(request.url()).pathname.startsWith(API_BASE)
  page.on('request', (request) => {
    if (api(request)) open.add(request)
  })
  page.on('requestfinished', (request) => open.delete(request))
  page.on('requestfailed', (request) => open.delete(request))
  return { settled: () => expect.poll(() => open.size).toBe(0) }
}
