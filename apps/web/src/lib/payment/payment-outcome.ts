import type { IntentPurpose, MessageKey, PaymentIntent } from '@solpledge/contract/client'
import type { Notice } from '../notice.ts'

/** What a fulfilled payment of each purpose made happen (docs/product.md#success-messages). */
const SUCCESS: Record<IntentPurpose, MessageKey> = {
  recharge: 'assets.rechargeSuccess',
  stake: 'pledge.success',
  node: 'node.purchased',
}

export type PaymentOutcome = { ok: true; notice: Notice } | { ok: false; notice: Notice }

/**
 * What to tell the user about a fulfilled intent: its purpose's success message, or, when the stake or node could
 * not be made after the payment arrived (e.g. the level sold out meanwhile), the server's reason; the payment is then
 * in the asset balance.
 */
export function paymentOutcome(intent: Pick<PaymentIntent, 'purpose' | 'refusal'>): PaymentOutcome {
  if (intent.refusal) return { ok: false, notice: { key: intent.refusal as MessageKey } }
  return { ok: true, notice: { key: SUCCESS[intent.purpose] } }
}
