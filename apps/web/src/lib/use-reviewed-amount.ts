import { type FormEvent, useState } from 'react'
import type { AmountCheck } from './amount-check.ts'
import { showNotice } from './notice.ts'

/**
 * The state of an amount form reviewed before it moves: the typed text and, once it passes its check, the
 * amount under review. `submit(check)` is the form's submit: the checked amount opens the review, a refusal is a
 * toast, no check (undefined: nothing to submit yet, or a call running) does nothing. `reset` clears both.
 * See docs/architecture.md#web-app.
 */
export function useReviewedAmount() {
  const [text, setText] = useState('')
  const [review, setReview] = useState<bigint | null>(null)
  const reset = () => {
    setText('')
    setReview(null)
  }
  const submit = (check: () => AmountCheck | undefined) => (event: FormEvent) => {
    event.preventDefault()
    const result = check()
    if (result?.ok) setReview(result.value)
    else if (result) showNotice(result.notice, 'error')
  }
  return { text, setText, review, setReview, reset, submit }
}
