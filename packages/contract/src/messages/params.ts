// The values of a message's placeholders; kept apart from the catalogues, which the web app's bundle does not carry.
import { formatUnits } from '../number-format.ts'

/**
 * An amount a message names (a minimum, a fee, a step, a limit), written when the message is translated: grouped in
 * the message's language with every decimal it has ('1,236.2625', in 'vi' '1.236,2625'), so nothing is dropped and a
 * minimum shown is never less than the real one; `unit` follows it when given ('1,000 PLG').
 */
export interface AmountParam {
  readonly units: string
  readonly decimals: number
  readonly unit?: string
}

/** An amount (base units) as a message parameter: see AmountParam. */
export const amountParam = (units: bigint | string, decimals: number, unit?: string): AmountParam => ({
  units: String(units),
  decimals,
  ...(unit === undefined ? {} : { unit }),
})

/** The values of a message's {{name}} placeholders. */
export type MessageParams = Record<string, string | number | AmountParam>

/** A placeholder's value as text in a language. */
export const paramText = (lang: string, value: string | number | AmountParam) =>
  typeof value === 'object'
    ? `${formatUnits(value.units, value.decimals, lang)}${value.unit === undefined ? '' : ` ${value.unit}`}`
    : String(value)
