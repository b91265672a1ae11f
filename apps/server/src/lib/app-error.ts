import { Code, type MessageKey, type MessageParams } from '@solpledge/contract'

/**
 * A refusal the user sees: an envelope code and a catalogue key, translated per request, answered with HTTP `status`
 * (200 for the business refusals; 429 for a rate limit, which proxies and metrics must see).
 */
export class AppError extends Error {
  constructor(
    readonly code: number,
    readonly key: MessageKey,
    readonly params: MessageParams = {},
    readonly status = 200,
  ) {
    super(key)
    this.name = 'AppError'
  }
}

export const refuse = (key: MessageKey, params?: MessageParams) => new AppError(Code.FAIL, key, params)
export const invalid = (key: MessageKey, params?: MessageParams) => new AppError(Code.INVALID, key, params)
