import { formatAmount, parseAmount } from '@solpledge/contract/client'
import { checkReason } from '@/admin/lib/reason.ts'

export type Direction = 'credit' | 'debit'

export type AdjustmentCheck =
  | { ok: true; amount: string; reason: string }
  | {
      ok: false
      error:
        | 'amountEmpty'
        | 'amountInvalid'
        | 'amountDecimals'
        | 'amountZero'
        | 'reasonRequired'
        | 'reasonTooShort'
        | 'reasonTooLong'
      params?: Record<string, number>
    }

/**
 * A manual adjustment as the API takes it: a signed amount in the coin's units (negative debits the balance), written
 * plainly from a typed decimal and a direction, and the mandatory reason; or why it cannot be sent.
 */
export function checkAdjustment(input: {
  direction: Direction
  amount: string
  reason: string
  decimals: number
}): AdjustmentCheck {
  const parsed = parseAmount(input.amount, input.decimals)
  if (!parsed.ok) {
    if (parsed.error === 'empty') return { ok: false, error: 'amountEmpty' }
    if (parsed.error === 'decimals') return { ok: false, error: 'amountDecimals', params: { decimals: input.decimals } }
    return { ok: false, error: 'amountInvalid' }
  }
  if (parsed.value === 0n) return { ok: false, error: 'amountZero' }
  const reason = checkReason(input.reason)
  if (!reason.ok) {
    const error =
      reason.error === 'required' ? 'reasonRequired' : reason.error === 'tooShort' ? 'reasonTooShort' : 'reasonTooLong'
    return { ok: false, error, params: reason.params }
  }
  const sign = input.direction === 'debit' ? '-' : ''
  return { ok: true, amount: `${sign}${formatAmount(parsed.value, input.decimals)}`, reason: reason.value }
}
