import { api, Code, type PaymentIntent } from '@solpledge/contract/client'
import { ApiError, call } from '../api-client.ts'

/** Reports the transaction that paid an intent; the server verifies it on chain and credits it exactly once. */
export const submitIntent = (id: string, signature: string) => call(api.intentSubmit, { id, signature })

/** Whether the server refused only because it does not see the transaction as confirmed yet (its message key). */
export const isNotConfirmedYet = (error: unknown) =>
  error instanceof ApiError && error.code === Code.FAIL && error.key === 'intent.notConfirmed'

export interface RetryOptions {
  attempts: number
  delayMs: number
  /** Whether a failure is worth another attempt. */
  retryable: (error: unknown) => boolean
  sleep?: (ms: number) => Promise<void>
}

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

/** Runs `task` until it succeeds, fails for good, or `attempts` are used up; rejects with the last failure. */
export async function retry<T>(
  task: () => Promise<T>,
  { attempts, delayMs, retryable, sleep = wait }: RetryOptions,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await task()
    } catch (error) {
      if (attempt >= attempts || !retryable(error)) throw error
      await sleep(delayMs)
    }
  }
}

/** Submits until the server has checked the transaction (it may lag the wallet's view of the chain a little). */
export const submitIntentUntilChecked = (id: string, signature: string, attempts = 6): Promise<PaymentIntent> =>
  retry(() => submitIntent(id, signature), { attempts, delayMs: 1_500, retryable: (error) => isNotConfirmedYet(error) })
