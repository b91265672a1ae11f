import type { Notice } from '../notice.ts'

/**
 * Ends a payment with something to tell the user. `sent`: the payment may be on chain, balances should refresh.
 * `refused`: the payment arrived but the server refused it for good, e.g. the node level sold out meanwhile (the money
 * is then in the asset balance): the notice says why.
 */
export class PaymentError extends Error {
  readonly notice: Notice
  readonly sent: boolean
  readonly refused: boolean

  constructor(
    notice: Notice,
    { cause, sent = false, refused = false }: { cause?: unknown; sent?: boolean; refused?: boolean } = {},
  ) {
    super('key' in notice ? notice.key : notice.text, { cause })
    this.name = 'PaymentError'
    this.notice = notice
    this.sent = sent || refused
    this.refused = refused
  }
}
