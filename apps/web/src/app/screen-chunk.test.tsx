// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react'
import { Suspense } from 'react'
import { afterEach, describe, expect, it } from 'vitest'
import { type ScreenChunk, ScreenOf, screenChunk } from './screen-chunk.tsx'

const Rank = () => <p>the ranking</p>
const page = (chunk: ScreenChunk) => (
  <Suspense fallback={<p>loading</p>}>
    <ScreenOf chunk={chunk} />
  </Suspense>
)

describe('a lazily loaded screen', () => {
  afterEach(cleanup)

  it('renders in the first render when its chunk is here (the first screen: main.tsx waits for it)', async () => {
    const chunk = screenChunk(async () => ({ Rank }), 'Rank')
    await chunk.preload()
    const { container } = render(page(chunk))
    // At once, in the same render: no loading fallback drawn first and replaced by a second render.
    expect(container.textContent).toBe('the ranking')
  })

  it('shows the fallback until a chunk still on its way is here', async () => {
    let arrive: (exports: { Rank: typeof Rank }) => void = () => {}
    const chunk = screenChunk(() => new Promise((resolve) => (arrive = resolve)), 'Rank')
    const { container } = render(page(chunk))
    expect(container.textContent).toBe('loading')
    arrive({ Rank })
    expect(await screen.findByText('the ranking')).toBeTruthy()
  })

  it('loads its chunk once however often it is asked for', async () => {
    let imports = 0
    const chunk = screenChunk(async () => {
      imports += 1
      return { Rank }
    }, 'Rank')
    await Promise.all([chunk.preload(), chunk.preload()])
    render(page(chunk))
    expect(await screen.findByText('the ranking')).toBeTruthy()
    expect(imports).toBe(1)
  })
})
