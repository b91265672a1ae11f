// What the component tests (*.test.tsx, happy-dom) share: the real i18n in English, a signed-in session, the app's
// query client, toaster and receipt sheet around the component, and a fake fetch at the API boundary that records every call.
import { api, type RouteDef } from '@solpledge/contract'
import { API_BASE, type ClientConfig, Code, type LoginData } from '@solpledge/contract/client'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { cleanup, configure, type RenderResult, render } from '@testing-library/react'
import type { ReactNode } from 'react'
import type { TSchema } from 'typebox'
import { Value } from 'typebox/value'
import { afterEach, expect, vi } from 'vitest'
import { ReceiptSheet } from '@/components/receipt-sheet.tsx'
import { Toaster } from '@/components/toaster.tsx'
import { ClientConfigContext } from '@/lib/client-config.ts'
import { initI18n } from '@/lib/i18n.ts'
import { LANGUAGE_KEY } from '@/lib/language.ts'
import { closeReceipt } from '@/lib/receipt.ts'
import { clearSession, saveLogin, setWalletAddress } from '@/lib/session.ts'

// happy-dom's Web Animations reject a cancelled animation's promise where browsers leave it to the page: the fades
// run on motion's own frame loop instead.
Reflect.deleteProperty(Element.prototype, 'animate')

/**
 * The live channel's socket in component tests: it stays connecting unless a test opens it (FakeSocket.open), and
 * records what the client sends; `receive` delivers a server message.
 */
export class FakeSocket {
  static readonly all: FakeSocket[] = []
  readyState = 0
  readonly sent: Record<string, unknown>[] = []
  onopen: (() => void) | null = null
  onmessage: ((message: { data: string }) => void) | null = null
  onclose: ((event: { code: number }) => void) | null = null
  onerror: (() => void) | null = null
  constructor(readonly url: string) {
    FakeSocket.all.push(this)
  }
  send(text: string) {
    this.sent.push(JSON.parse(text))
  }
  close() {
    this.readyState = 3
  }
  open() {
    this.readyState = 1
    this.onopen?.()
    this.receive({ type: 'welcome', heartbeat_ms: 30_000 })
  }
  receive(message: object) {
    this.onmessage?.({ data: JSON.stringify(message) })
  }
}
vi.stubGlobal('WebSocket', FakeSocket)

// findBy/waitFor wait for what the app shows after a fetch or a render: generous on a busy machine, never a sleep.
configure({ asyncUtilTimeout: 5000 })

export const ADDRESS = 'DemoWa11etAddress1111111111111111111111111'

export interface ApiCall {
  path: string
  body: Record<string, unknown>
  headers: Record<string, string>
}

/** An answer of a fake route: the envelope's data, or a refusal. */
type Answer = { data: unknown; msg?: string } | { code: number; msg: string }

/** The contract's routes by path: the schema each fake answer must pass, as the server's answers do. */
const contractRoutes = new Map<string, RouteDef>(Object.values(api).map((def) => [def.path as string, def]))

/** What a fake route answered that the contract's response schema refuses; checked after each test. */
const invalidAnswers: string[] = []

/**
 * Why `data` is not an answer the contract allows for `path` (its route's response schema, the one the server
 * serializes with), or null when it is one.
 */
export function answerProblem(path: string, data: unknown): string | null {
  const def = contractRoutes.get(path)
  if (!def) return `${path} is no route of the contract`
  const schema = def.data as TSchema
  if (Value.Check(schema, data)) return null
  const errors = [...Value.Errors(schema, data)].slice(0, 3)
  return `${path} answered ${JSON.stringify(data)?.slice(0, 300)}: ${errors
    .map((error) => `${error.instancePath || '/'} ${error.message}`)
    .join('; ')}`
}

/**
 * Replaces fetch by the given routes (paths below the API base); each answers with what its handler resolves,
 * possibly later (a deferred promise keeps a call pending). Unknown paths fail the test, and so does an answer the
 * contract's response schema for its route refuses (after the test: the app may have swallowed the failed call).
 * Resolves the calls made.
 */
export function fakeApi(routes: Record<string, (body: Record<string, unknown>) => Answer | Promise<Answer>>) {
  const calls: ApiCall[] = []
  vi.stubGlobal('fetch', async (input: string, init: RequestInit = {}) => {
    const path = String(input).slice(API_BASE.length)
    const body = init.body ? JSON.parse(String(init.body)) : {}
    calls.push({ path, body, headers: init.headers as Record<string, string> })
    const route = routes[path]
    if (!route) throw new Error(`no fake route for ${path}`)
    const answer = await route(body)
    const problem = 'code' in answer ? null : answerProblem(path, answer.data)
    if (problem) {
      invalidAnswers.push(problem)
      throw new Error(problem)
    }
    const envelope = 'code' in answer ? { ...answer, data: null } : { code: Code.OK, msg: answer.msg ?? '', ...answer }
    return new Response(JSON.stringify(envelope), { headers: { 'content-type': 'application/json' } })
  })
  return calls
}

/** A promise resolved from outside: an answer that comes when the test says so. */
export function deferred<T>() {
  let resolve!: (value: T) => void
  const promise = new Promise<T>((done) => {
    resolve = done
  })
  return { promise, resolve }
}

let i18nReady: Promise<void> | null = null

/** The runtime config the shell provides: the local chain (a test of another cluster provides its own). */
export const TEST_CONFIG: ClientConfig = {
  cluster: 'localnet',
  testnet: true,
  rpcUrl: 'http://127.0.0.1:8899',
  wsUrl: 'ws://127.0.0.1:8900',
  demoWallet: false,
  productSymbol: 'PLG',
}

/** Renders `ui` in English with the app's providers, toaster and receipt sheet, nobody signed in; rerender keeps the providers. */
export async function renderApp(ui: ReactNode): Promise<RenderResult> {
  localStorage.setItem(LANGUAGE_KEY, 'en')
  // The strings, and the chunks a modal loads when it first opens (so that finding one does not wait on a transform).
  i18nReady ??= Promise.all([
    initI18n(),
    import('@/components/modal-frame.tsx'),
    import('@/app/motion-features.ts'),
  ]).then(() => undefined)
  await i18nReady
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } })
  const wrap = (node: ReactNode) => (
    <ClientConfigContext value={TEST_CONFIG}>
      <QueryClientProvider client={queryClient}>
        {node}
        <Toaster />
        <ReceiptSheet />
      </QueryClientProvider>
    </ClientConfigContext>
  )
  const view = render(wrap(ui))
  return { ...view, rerender: (node: ReactNode) => view.rerender(wrap(node)) }
}

/** Renders `ui` signed in (as ADDRESS unless told), in English, with the app's providers and toaster. */
export async function renderSignedIn(ui: ReactNode, address = ADDRESS): Promise<RenderResult> {
  setWalletAddress(address)
  saveLogin({ address, token: 'token' } as LoginData)
  return renderApp(ui)
}

afterEach(() => {
  cleanup()
  closeReceipt()
  clearSession()
  setWalletAddress(null)
  localStorage.clear()
  vi.unstubAllGlobals()
  expect(invalidAnswers.splice(0), 'fake answers the contract refuses').toEqual([])
})
