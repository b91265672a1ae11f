/**
 * A fresh Idempotency-Key (and client_order_id): 32 hex digits, inside what the contract allows for a client_order_id
 * (8 to 64 of [A-Za-z0-9_-]).
 */
export function newIdempotencyKey() {
  const bytes = crypto.getRandomValues(new Uint8Array(16))
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('')
}

export interface ActionKeysOptions {
  /** Whether a failure left the outcome unknown (no answer: a timeout, a lost connection). */
  unanswered: (error: unknown) => boolean
  create?: () => string
}

/**
 * The Idempotency-Key of one user action (a form's or a button's calls): the same key while the same input is sent
 * again after a call whose outcome is unknown, so a retry is answered with the first answer and nothing is done twice;
 * a new key once the input changed or the last call was answered (done or refused: a refusal would otherwise be
 * replayed to every later attempt).
 */
export function actionKeys({ unanswered, create = newIdempotencyKey }: ActionKeysOptions) {
  let current: { input: string; key: string } | null = null
  const forget = (key: string) => {
    if (current?.key === key) current = null
  }
  return {
    /** Calls `call` with the key for `input` (what identifies the action, e.g. 'buy|500000|1000000000'). */
    async call<T>(input: string, call: (key: string) => Promise<T>): Promise<T> {
      if (current?.input !== input) current = { input, key: create() }
      const { key } = current
      try {
        const result = await call(key)
        forget(key)
        return result
      } catch (error) {
        if (!unanswered(error)) forget(key)
        throw error
      }
    },
  }
}
