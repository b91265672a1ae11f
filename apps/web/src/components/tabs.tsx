import './tabs.css'

export interface TabOption<T extends string> {
  value: T
  label: string
}

interface TabsProps<T extends string> {
  /** Names the tab list for assistive technology. */
  label: string
  options: readonly TabOption<T>[]
  value: T
  onChange: (value: T) => void
  /** Test ids: `${testId}-${value}` for each tab. */
  testId: string
}

/** A segmented switch between views of one list (e.g. mining / expired stakes). */
export function Tabs<T extends string>({ label, options, value, onChange, testId }: TabsProps<T>) {
  return (
    <div className="tabs" role="tablist" aria-label={label}>
      {options.map((option) => (
        <button
          key={option.value}
          type="button"
          role="tab"
          className="tab"
          aria-selected={option.value === value}
          data-testid={`${testId}-${option.value}`}
          onClick={() => onChange(option.value)}
        >
          {option.label}
        </button>
      ))}
    </div>
  )
}
