// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'

/** The module afresh (its "a screen was shown" state is the page's), with idle callbacks run when the test says. */
async function fresh() {
  vi.resetModules()
  const idle: (() => void)[] = []
  vi.stubGlobal('requestIdleCallback', (run: () => void) => idle.push(run))
  vi.stubGlobal('cancelIdleCallback', () => {})
  const module = await import('./after-first-screen.ts')
  const runIdle = () => {
    for (const run of idle.splice(0)) run()
  }
  return { ...module, runIdle, idleQueued: () => idle.length }
}

describe('afterFirstScreen', () => {
  let readyState: DocumentReadyState
  beforeEach(() => {
    readyState = 'complete'
    vi.spyOn(document, 'readyState', 'get').mockImplementation(() => readyState)
  })
  afterEach(() => {
    vi.unstubAllGlobals()
    vi.restoreAllMocks()
  })

  it('waits for a screen, then for the browser to be idle', async () => {
    const { afterFirstScreen, markScreenShown, runIdle, idleQueued } = await fresh()
    const run = vi.fn()
    afterFirstScreen(run)
    expect(idleQueued()).toBe(0)
    markScreenShown()
    expect(run).not.toHaveBeenCalled()
    expect(idleQueued()).toBe(1)
    runIdle()
    expect(run).toHaveBeenCalledOnce()
  })

  it('waits for the page to have loaded', async () => {
    readyState = 'interactive'
    const { afterFirstScreen, markScreenShown, runIdle, idleQueued } = await fresh()
    const run = vi.fn()
    markScreenShown()
    afterFirstScreen(run)
    expect(idleQueued()).toBe(0)
    readyState = 'complete'
    window.dispatchEvent(new Event('load'))
    runIdle()
    expect(run).toHaveBeenCalledOnce()
  })

  it('runs nothing once cancelled, at any step', async () => {
    readyState = 'interactive'
    const { afterFirstScreen, markScreenShown, runIdle } = await fresh()
    const beforeScreen = vi.fn()
    afterFirstScreen(beforeScreen)()
    markScreenShown()
    const beforeLoad = vi.fn()
    afterFirstScreen(beforeLoad)()
    window.dispatchEvent(new Event('load'))
    runIdle()
    expect(beforeScreen).not.toHaveBeenCalled()
    expect(beforeLoad).not.toHaveBeenCalled()
  })

  it('firstScreenDone resolves after the first screen', async () => {
    const { firstScreenDone, markScreenShown, runIdle } = await fresh()
    let done = false
    void firstScreenDone().then(() => (done = true))
    await Promise.resolve()
    expect(done).toBe(false)
    markScreenShown()
    runIdle()
    await vi.waitFor(() => expect(done).toBe(true))
  })
})
