import type { IntentPurpose, MessageKey, PaymentIntent } from '@solpledge/contract/client'
import i18next from 'i18next'
import type { Notice } from '../notice.ts'
import { type Receipt, receiptMoney } from '../receipt.ts'

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

/**
 * The receipt of a fulfilled payment: what the wallet paid (for a stake its period, for a node its level), whether it
 * was credited as asked or, refused afterwards, is in the asset balance, and the transaction on the explorer.
 */
export function paymentReceipt(intent: PaymentIntent): Receipt {
  const t = i18next.t
  const asset = { symbol: intent.coin, decimals: intent.decimals }
  const level = intent.level ?? ''
  return {
    title: t(`receipt.title.${intent.purpose}`, {
      coin: intent.coin,
      level: t(`node.level.${level}`, { defaultValue: level }),
    }),
    rows: [
      { id: 'amount', label: t('receipt.paid'), value: receiptMoney(intent.amount, asset) },
      ...(intent.days === null
        ? []
        : [{ id: 'period', label: t('review.period'), value: t('pledge.config.days', { count: intent.days }) }]),
    ],
    state: intent.refusal
      ? { value: 'refunded', text: t('receipt.status.refunded'), tone: 'bad' }
      : { value: 'credited', text: t('receipt.status.credited'), tone: 'ok' },
    signature: intent.signature,
  }
}
