import { type MessageKey, parseAmount } from '@solpledge/contract/client'
import i18next from 'i18next'
import { formatUnits } from './format.ts'
import type { Notice } from './notice.ts'

/** A typed amount read as base units, or what to tell the user about it. */
export type AmountCheck = { ok: true; value: bigint } | AmountRefusal
export type AmountRefusal = { ok: false; notice: Notice }

/**
 * An amount a refusal names (a minimum, a fee, a step): through the one formatter, grouped in the interface language,
 * with every decimal it has, since the user types to it: '1,000.5', in 'vi' '1.000,5'.
 */
export const refusalAmount = (units: bigint | string, decimals: number) =>
  formatUnits(units, decimals, i18next.resolvedLanguage)

/** A refusal of a typed amount: a catalogue key with its placeholders. */
export const refuseAmount = (key: MessageKey, params?: Record<string, string | number>): AmountRefusal => ({
  ok: false,
  notice: params ? { key, params } : { key },
})

/**
 * Reads a typed amount as base units, shared by every amount field: `emptyKey` (with `emptyParams`) when nothing is
 * typed, the allowed decimals when there are too many, 'invalid' for anything else that is not a positive decimal
 * number.
 */
export function checkTypedAmount(
  text: string,
  decimals: number,
  emptyKey: MessageKey,
  emptyParams?: Record<string, string | number>,
): AmountCheck {
  const parsed = parseAmount(text, decimals)
  if (!parsed.ok) {
    if (parsed.error === 'empty') return refuseAmount(emptyKey, emptyParams)
    if (parsed.error === 'decimals') return refuseAmount('assets.amountDecimals', { decimals })
    return refuseAmount('assets.amountInvalid')
  }
  if (parsed.value === 0n) return refuseAmount('assets.amountInvalid')
  return parsed
}
