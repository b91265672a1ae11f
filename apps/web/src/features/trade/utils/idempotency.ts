/** A fresh idempotency key for an order or a swap (the contract allows 8 to 64 of [A-Za-z0-9_-]). */
export function newClientOrderId() {
  const bytes = crypto.getRandomValues(new Uint8Array(16))
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('')
}

/**
 * The client_order_id of a form's submits: the same key while the same order is submitted again and the outcome of the
 * last submit is unknown (a timeout, a lost connection), so a retry cannot place it twice; a new key once the input
 * changes or the last submit was answered (placed or refused).
 */
export function submitKeys(create = newClientOrderId) {
  let current: { input: string; id: string } | null = null
  return {
    /** The key for a submit of `input` (the order's terms, e.g. 'buy|500000|1000000000'). */
    keyFor(input: string) {
      if (current?.input !== input) current = { input, id: create() }
      return current.id
    },
    /** The last submit was answered: the next one is a new order. */
    answered() {
      current = null
    },
  }
}
