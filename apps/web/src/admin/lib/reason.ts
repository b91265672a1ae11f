import { Reason } from '@solpledge/contract'

/** The reason of a decision kept in the audit log: as long as the contract's Reason allows, once trimmed. */
const { minLength, maxLength } = Reason as { minLength?: number; maxLength?: number }
export const REASON_MIN = minLength ?? 1
export const REASON_MAX = maxLength ?? 500

export type ReasonCheck =
  | { ok: true; value: string }
  | { ok: false; error: 'required' | 'tooShort' | 'tooLong'; params: { min: number; max: number } }

export function checkReason(text: string): ReasonCheck {
  const value = text.trim()
  const params = { min: REASON_MIN, max: REASON_MAX }
  if (value === '') return { ok: false, error: 'required', params }
  if (value.length < REASON_MIN) return { ok: false, error: 'tooShort', params }
  if (value.length > REASON_MAX) return { ok: false, error: 'tooLong', params }
  return { ok: true, value }
}
