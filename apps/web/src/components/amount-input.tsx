import { formatAmount } from '@solpledge/contract/client'
import type { ComponentProps, ReactNode } from 'react'
import './amount-input.css'

interface AmountInputProps extends Omit<ComponentProps<'input'>, 'value' | 'onChange' | 'type'> {
  value: string
  /** The typed text, with a decimal comma turned into a point and spaces removed; parse it with parseAmount. */
  onChange: (text: string) => void
  /** Shown at the end of the field, e.g. the asset's symbol or a Max button. */
  suffix?: ReactNode
  testId?: string
}

/** A money field: a decimal keypad on phones, text kept as typed so nothing is lost to floating point. */
export function AmountInput({ value, onChange, suffix, testId, className, ...props }: AmountInputProps) {
  return (
    <div className={className ? `amount-input ${className}` : 'amount-input'}>
      <input
        {...props}
        type="text"
        inputMode="decimal"
        autoComplete="off"
        autoCorrect="off"
        spellCheck={false}
        data-testid={testId}
        value={value}
        onChange={(event) => onChange(event.target.value.replace(/,/g, '.').replace(/\s/g, ''))}
      />
      {suffix && <span className="amount-input-suffix">{suffix}</span>}
    </div>
  )
}

interface AmountSuffixProps {
  /** The amount's unit, shown first. */
  unit: ReactNode
  /** Base units the Max button fills in; no button while unknown or nothing. */
  max: bigint | null | undefined
  decimals: number
  label: string
  testId: string
  disabled: boolean
  onMax: (text: string) => void
}

/** An amount field's suffix: its unit and a Max button filling in all that may be spent. */
export function AmountSuffix({ unit, max, decimals, label, testId, disabled, onMax }: AmountSuffixProps) {
  return (
    <>
      {unit}
      {max != null && max > 0n && (
        <button
          type="button"
          className="amount-max"
          data-testid={testId}
          disabled={disabled}
          onClick={() => onMax(formatAmount(max, decimals))}
        >
          {label}
        </button>
      )}
    </>
  )
}
