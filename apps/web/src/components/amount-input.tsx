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

interface AmountFieldProps {
  /** Names the field and its test ids: `${name}-amount`, `${name}-max`, `${name}-blocked`. */
  name: string
  label: string
  placeholder: string
  /** The Max button's label, the unit shown in the field and its decimals. */
  maxLabel: string
  unit: string
  decimals: number
  value: string
  onChange: (text: string) => void
  /** Base units the Max button fills in; no button while unknown or nothing. */
  max: bigint | null | undefined
  disabled: boolean
  /** The line under the field (what may be spent), with its test id. */
  hint?: { text: ReactNode; testId: string }
  /** A refusal said while typing (more than can be spent): the form points its submit button at it. */
  blocked?: ReactNode
}

/**
 * An amount form's field: its label, the input with the unit and a Max button, the line under it and a refusal said
 * while typing.
 */
export function AmountField(props: AmountFieldProps) {
  const { name, label, placeholder, maxLabel, unit, decimals, value, onChange, max, disabled, hint, blocked } = props
  const id = `${name}-amount`
  return (
    <>
      <label className="amount-form-label" htmlFor={id}>
        {label}
      </label>
      <AmountInput
        id={id}
        testId={id}
        value={value}
        onChange={onChange}
        placeholder={placeholder}
        disabled={disabled}
        suffix={
          <AmountSuffix
            unit={unit}
            max={max}
            decimals={decimals}
            label={maxLabel}
            testId={`${name}-max`}
            disabled={disabled}
            onMax={onChange}
          />
        }
      />
      {hint && (
        <p className="amount-form-hint" data-testid={hint.testId}>
          {hint.text}
        </p>
      )}
      {blocked && (
        <p className="amount-form-blocked" id={`${name}-blocked`} data-testid={`${name}-blocked`} role="status">
          {blocked}
        </p>
      )}
    </>
  )
}
