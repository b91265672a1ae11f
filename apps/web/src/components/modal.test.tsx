// @vitest-environment happy-dom
import { act, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { useState } from 'react'
import { describe, expect, it, vi } from 'vitest'
import { renderSignedIn } from '@/test/harness.tsx'
import { Modal } from './modal.tsx'
import { MASK_GUARD_MS } from './modal-frame.tsx'

/** A page with a sheet that can open a second sheet over it, as a form opens its review. */
function Page({ onFormClose }: { onFormClose?: () => void }) {
  const [form, setForm] = useState(false)
  const [review, setReview] = useState(false)
  return (
    <main>
      <button type="button" onClick={() => setForm(true)}>
        open
      </button>
      <Modal
        open={form}
        title="Form"
        onClose={() => {
          onFormClose?.()
          setForm(false)
        }}
        testId="form"
      >
        <button type="button" onClick={() => setReview(true)}>
          review
        </button>
      </Modal>
      <Modal open={review} title="Review" onClose={() => setReview(false)} testId="review">
        <p>rows</p>
      </Modal>
    </main>
  )
}

/** The modal entry the history is at, if any. */
const mark = () => (history.state as Record<string, unknown> | null)?.solpledgeModal

const back = () =>
  act(async () => {
    const popped = new Promise((resolve) => window.addEventListener('popstate', resolve, { once: true }))
    history.back()
    await popped
  })

describe('a modal and the browser back button', () => {
  it('back closes the topmost open sheet and stays on the page; a closed sheet takes its entry back', async () => {
    await renderSignedIn(<Page />)
    const user = userEvent.setup()
    const start = history.length
    const url = location.href
    await user.click(screen.getByText('open'))
    await screen.findByTestId('form')
    const formEntry = mark()
    expect(formEntry).toBeDefined()
    await user.click(screen.getByText('review'))
    await screen.findByTestId('review')
    expect(history.length).toBe(start + 2)
    expect(mark()).not.toBe(formEntry)

    await back()
    await waitFor(() => expect(screen.queryByTestId('review')).toBeNull())
    expect(screen.getByTestId('form')).toBeTruthy()
    expect(location.href).toBe(url)

    // Closed by its button: its entry goes, so the next back leaves the page instead of doing nothing.
    await user.click(screen.getByText('review'))
    await screen.findByTestId('review')
    const closes = screen.getAllByRole('button', { name: 'Close' }).filter((b) => b.className === 'modal-close')
    await user.click(closes[1] as HTMLElement)
    await waitFor(() => expect(screen.queryByTestId('review')).toBeNull())
    await waitFor(() => expect(mark()).toBe(formEntry))
    await back()
    await waitFor(() => expect(screen.queryByTestId('form')).toBeNull())
    expect(mark()).toBeUndefined()
  })

  it('Escape closes only the topmost sheet', async () => {
    await renderSignedIn(<Page />)
    const user = userEvent.setup()
    await user.click(screen.getByText('open'))
    await user.click(await screen.findByText('review'))
    await screen.findByTestId('review')
    await user.keyboard('{Escape}')
    await waitFor(() => expect(screen.queryByTestId('review')).toBeNull())
    expect(screen.getByTestId('form')).toBeTruthy()
  })

  it('a closing sheet never undoes a navigation away that started meanwhile (a link to Phantom)', async () => {
    await renderSignedIn(<Page />)
    const user = userEvent.setup()
    await user.click(screen.getByText('open'))
    await screen.findByTestId('form')
    const go = vi.spyOn(history, 'go')
    const length = history.length
    // As the wallet picker does: the sheet closes and, in the same task, the page sets location.href. The browser
    // announces the navigation at once (here beforeunload: happy-dom has no Navigation API); the step back that takes
    // the sheet's entry would cancel it.
    const closes = screen.getAllByRole('button', { name: 'Close' }).filter((b) => b.className === 'modal-close')
    act(() => {
      ;(closes[0] as HTMLElement).click()
      window.dispatchEvent(new Event('beforeunload'))
    })
    await waitFor(() => expect(screen.queryByTestId('form')).toBeNull())
    // The sheet takes its entry back in a timer at the end of the closing task (lib/modal-history.ts): a timer queued
    // now runs after it.
    await new Promise((resolve) => setTimeout(resolve))
    expect(go).not.toHaveBeenCalled()
    expect(history.length).toBe(length)
    // The page stayed after all (the wallet's app opened instead): the next sheet takes its entry back as usual.
    document.dispatchEvent(new Event('visibilitychange'))
    await user.click(screen.getByText('open'))
    await screen.findByTestId('form')
    await user.keyboard('{Escape}')
    await waitFor(() => expect(go).toHaveBeenCalledWith(-1))
    go.mockRestore()
  })
})

describe("a sheet's mask", () => {
  it('ignores the second tap of the double tap that opened the sheet, and closes on a later tap', async () => {
    const closed = vi.fn()
    await renderSignedIn(<Page onFormClose={closed} />)
    let now = Date.now()
    const clock = vi.spyOn(Date, 'now').mockImplementation(() => now)
    try {
      const opener = screen.getByText('open')
      act(() => opener.click())
      const sheet = await screen.findByTestId('form')
      // The second tap of a double tap lands where the button was: on the mask, which now covers it.
      const mask = sheet.parentElement?.querySelector('.modal-mask') as HTMLElement
      now += MASK_GUARD_MS - 1
      act(() => mask.click())
      // The mask decides on the tap (the clock above): a close would have been asked by now.
      expect(closed).not.toHaveBeenCalled()
      expect(screen.getByTestId('form')).toBeTruthy()
      now += 1
      act(() => mask.click())
      expect(closed).toHaveBeenCalledTimes(1)
      await waitFor(() => expect(screen.queryByTestId('form')).toBeNull())
    } finally {
      clock.mockRestore()
    }
  })
})
