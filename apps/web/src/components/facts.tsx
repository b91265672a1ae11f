import type { ReactNode } from 'react'
import './facts.css'

export interface Fact {
  /** Stable key of the row. */
  id: string
  label: ReactNode
  value: ReactNode
  testId?: string
}

/** Label-value rows (a description list): the figures of a stake, a deposit, a configuration. */
export function Facts({ facts, className }: { facts: readonly Fact[]; className?: string }) {
  return (
    <dl className={className ? `facts ${className}` : 'facts'}>
      {facts.map((fact) => (
        <div key={fact.id}>
          <dt>{fact.label}</dt>
          <dd data-testid={fact.testId}>{fact.value}</dd>
        </div>
      ))}
    </dl>
  )
}
