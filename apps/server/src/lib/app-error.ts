import { Code, type MessageKey } from '@solpledge/contract'

/** A refusal the user sees: an envelope code and a catalogue key, translated per request. */
export class AppError extends Error {
  constructor(
    readonly code: number,
    readonly key: MessageKey,
    readonly params: Record<string, string | number> = {},
  ) {
    super(key)
    this.name = 'AppError'
  }
}

export const refuse = (key: MessageKey, params?: Record<string, string | number>) =>
  new AppError(Code.FAIL, key, params)
export const invalid = (key: MessageKey, params?: Record<string, string | number>) =>
  new AppError(Code.INVALID, key, params)
