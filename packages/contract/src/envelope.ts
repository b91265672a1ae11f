import type { MessageKey } from './messages/en.ts'

/**
 * Envelope codes (docs/product.md#envelope). Every answer of the API is HTTP 200 with `{ code, msg, key, data }` unless
 * the transport itself failed (HTTP 500 for an unexpected server fault, still with an envelope). `key` is the message
 * key `msg` was translated from: clients decide by it (and by code), never by the translated text. The web client
 * resolves code 1, rejects the failure codes below, and on -403 clears the session.
 */
export const Code = {
  /** Success. */
  OK: 1,
  /** A business refusal (insufficient balance, sold out, …) or an unexpected fault. */
  FAIL: 0,
  /** The wallet is not bound to a referrer yet: show the bind dialog. */
  NOT_BOUND: 2,
  /** The request was understood but a field is invalid (schema or rule). */
  INVALID: -1,
  /** The thing asked for does not exist or is not yours. */
  NOT_FOUND: -2,
  /** Too many requests: rate limited. */
  RATE_LIMITED: -102,
  /** The request could not be read: malformed JSON, oversize body, wrong content type, unknown path. */
  BAD_REQUEST: -406,
  /** Missing, expired or foreign session: the client clears its storages. */
  SESSION_INVALID: -403,
} as const
export type CodeValue = (typeof Code)[keyof typeof Code]

/** Codes on which the web client rejects without showing anything itself (docs/product.md#envelope). */
export const SILENT_REJECT_CODES: readonly number[] = [0, 2, -1, -406, -2, -102]

export interface Envelope<T = unknown> {
  code: number
  /** The answer's message, translated into the request's language: to show, never to decide on. */
  msg: string
  /** The message key of msg (messages/en.ts): what a client decides on, e.g. 'intent.notConfirmed'. */
  key: MessageKey
  data: T
}
