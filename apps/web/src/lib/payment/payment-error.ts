import type { Notice } from '../notice.ts'

/**
 * Ends a payment with something to tell the user. `sent`: the payment may be on chain, balances should refresh.
 * `refused`: the payment arrived but the server refused it for good, e.g. the node level sold out meanwhile (the money
 * is then in the asset balance): the notice says why. `unanswered`: asking for the intent got no answer (a timeout, a
 * lost connection), so a retry asks again with the same Idempotency-Key.
 */
export class PaymentError extends Error {
  readonly notice: Notice
  readonly sent: boolean
  readonly refused: boolean
  readonly unanswered: boolean

  constructor(
    notice: Notice,
    {
      cause,
      sent = false,
      refused = false,
      unanswered = false,
    }: { cause?: unknown; sent?: boolean; refused?: boolean; unanswered?: boolean } = {},
  ) {
    super('key' in notice ? notice.key : notice.text, { cause })
    this.name = 'PaymentError'
    this.notice = notice
    this.sent = sent || refused
    this.refused = refused
    this.unanswered = unanswered
  }
}
