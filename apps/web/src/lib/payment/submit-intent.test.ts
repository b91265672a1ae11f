import { translate } from '@solpledge/contract'
import { describe, expect, it, vi } from 'vitest'
import { ApiError } from '../api-client.ts'
import { isNotConfirmedYet, retry } from './submit-intent.ts'

const notConfirmed = (lang: 'en' | 'zh') =>
  new ApiError(0, translate(lang, 'intent.notConfirmed'), 'intent.notConfirmed')

describe('isNotConfirmedYet', () => {
  it('recognises the not-confirmed refusal by its key, in any language', () => {
    expect(isNotConfirmedYet(notConfirmed('en'))).toBe(true)
    expect(isNotConfirmedYet(notConfirmed('zh'))).toBe(true)
  })

  it('does not mistake other refusals or failures for it, whatever their text', () => {
    const mismatch = translate('en', 'intent.paymentMismatch')
    expect(isNotConfirmedYet(new ApiError(0, mismatch, 'intent.paymentMismatch'))).toBe(false)
    expect(isNotConfirmedYet(new ApiError(0, translate('en', 'intent.notConfirmed'), 'error.internal'))).toBe(false)
    expect(isNotConfirmedYet(new ApiError(-1, translate('en', 'intent.notConfirmed'), 'intent.notConfirmed'))).toBe(
      false,
    )
    expect(isNotConfirmedYet(new Error(translate('en', 'intent.notConfirmed')))).toBe(false)
  })
})

describe('retry', () => {
  const sleep = vi.fn(async (_ms: number) => {})
  const retryable = (error: unknown) => error instanceof ApiError && error.code === 0

  it('retries retryable failures until the task succeeds', async () => {
    const task = vi.fn<() => Promise<string>>()
    task
      .mockRejectedValueOnce(new ApiError(0, 'later', 'intent.notConfirmed'))
      .mockRejectedValueOnce(new ApiError(0, 'later', 'intent.notConfirmed'))
    task.mockResolvedValueOnce('credited')
    await expect(retry(task, { attempts: 5, delayMs: 1500, retryable, sleep })).resolves.toBe('credited')
    expect(task).toHaveBeenCalledTimes(3)
    expect(sleep).toHaveBeenCalledWith(1500)
  })

  it('stops at once on a failure that is not retryable', async () => {
    const refusal = new ApiError(-1, 'mismatch', 'intent.paymentMismatch')
    const task = vi.fn(() => Promise.reject(refusal))
    await expect(retry(task, { attempts: 5, delayMs: 1, retryable, sleep })).rejects.toBe(refusal)
    expect(task).toHaveBeenCalledTimes(1)
  })

  it('gives up after the last attempt with the last failure', async () => {
    const task = vi.fn(() => Promise.reject(new ApiError(0, 'later', 'intent.notConfirmed')))
    await expect(retry(task, { attempts: 3, delayMs: 1, retryable, sleep })).rejects.toMatchObject({ message: 'later' })
    expect(task).toHaveBeenCalledTimes(3)
  })
})
