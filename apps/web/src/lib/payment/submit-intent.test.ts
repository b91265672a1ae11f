import { messages, translate } from '@solpledge/contract'
import i18next from 'i18next'
import { beforeAll, describe, expect, it, vi } from 'vitest'
import { ApiError } from '../api-client.ts'
import { isNotConfirmedYet, retry } from './submit-intent.ts'

const notConfirmed = (lang: 'en' | 'zh') => new ApiError(0, translate(lang, 'intent.notConfirmed'))

describe('isNotConfirmedYet', () => {
  // The app has its language's catalogue loaded in i18next (lib/i18n.ts); here en and zh.
  beforeAll(() =>
    i18next.init({ resources: { en: { msg: messages.en }, zh: { msg: messages.zh } }, lng: 'en', initAsync: false }),
  )

  it('recognises the not-confirmed refusal in the request language', () => {
    expect(isNotConfirmedYet(notConfirmed('en'), 'en')).toBe(true)
    expect(isNotConfirmedYet(notConfirmed('zh'), 'zh')).toBe(true)
  })

  it('does not mistake other refusals or failures for it', () => {
    expect(isNotConfirmedYet(new ApiError(0, translate('en', 'intent.paymentMismatch')), 'en')).toBe(false)
    expect(isNotConfirmedYet(new ApiError(-1, translate('en', 'intent.notConfirmed')), 'en')).toBe(false)
    expect(isNotConfirmedYet(notConfirmed('zh'), 'en')).toBe(false)
    expect(isNotConfirmedYet(new Error(translate('en', 'intent.notConfirmed')), 'en')).toBe(false)
  })
})

describe('retry', () => {
  const sleep = vi.fn(async (_ms: number) => {})
  const retryable = (error: unknown) => error instanceof ApiError && error.code === 0

  it('retries retryable failures until the task succeeds', async () => {
    const task = vi.fn<() => Promise<string>>()
    task.mockRejectedValueOnce(new ApiError(0, 'later')).mockRejectedValueOnce(new ApiError(0, 'later'))
    task.mockResolvedValueOnce('credited')
    await expect(retry(task, { attempts: 5, delayMs: 1500, retryable, sleep })).resolves.toBe('credited')
    expect(task).toHaveBeenCalledTimes(3)
    expect(sleep).toHaveBeenCalledWith(1500)
  })

  it('stops at once on a failure that is not retryable', async () => {
    const refusal = new ApiError(-1, 'mismatch')
    const task = vi.fn(() => Promise.reject(refusal))
    await expect(retry(task, { attempts: 5, delayMs: 1, retryable, sleep })).rejects.toBe(refusal)
    expect(task).toHaveBeenCalledTimes(1)
  })

  it('gives up after the last attempt with the last failure', async () => {
    const task = vi.fn(() => Promise.reject(new ApiError(0, 'later')))
    await expect(retry(task, { attempts: 3, delayMs: 1, retryable, sleep })).rejects.toMatchObject({ message: 'later' })
    expect(task).toHaveBeenCalledTimes(3)
  })
})
