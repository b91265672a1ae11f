import type { ReactNode } from 'react'
import './option-group.css'

export interface Option<T extends string | number> {
  value: T
  /** The option's headline, e.g. '30 days'. */
  title: ReactNode
  /** Lines under the headline, e.g. the multiples of a period. */
  details?: readonly ReactNode[]
}

interface OptionGroupProps<T extends string | number> {
  /** The question the options answer, shown above them. */
  legend: string
  /** Groups the radio buttons of this field. */
  name: string
  options: readonly Option<T>[]
  value: T | null
  onChange: (value: T) => void
  disabled?: boolean
  /** Test id of each option, with its value in data-value. */
  testId: string
  /** Options in a row (default: up to three, four as two by two); 1 lists them, for cards with several lines. */
  columns?: number
}

/** Columns of the option cards: up to three in a row, four as two by two. */
const columns = (count: number) => (count === 4 ? 2 : Math.max(1, Math.min(count, 3)))

/** A choice of one among a few options shown as cards (radio buttons underneath), e.g. staking or finance periods. */
export function OptionGroup<T extends string | number>({
  legend,
  name,
  options,
  value,
  onChange,
  disabled,
  testId,
  columns: fixed,
}: OptionGroupProps<T>) {
  return (
    <fieldset className="option-group" disabled={disabled}>
      <legend>{legend}</legend>
      <div
        className="option-grid"
        style={{ gridTemplateColumns: `repeat(${fixed ?? columns(options.length)}, minmax(0, 1fr))` }}
      >
        {options.map((option) => (
          <label key={String(option.value)} className="option-card" data-testid={testId} data-value={option.value}>
            <input
              type="radio"
              name={name}
              value={String(option.value)}
              checked={option.value === value}
              onChange={() => onChange(option.value)}
            />
            <span className="option-title">{option.title}</span>
            {option.details?.map((detail, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: the details of an option are a fixed list of lines
              <span key={index} className="option-detail">
                {detail}
              </span>
            ))}
          </label>
        ))}
      </div>
    </fieldset>
  )
}
