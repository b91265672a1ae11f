import type { ReactNode } from 'react'
import { Link } from 'react-router'
import { type Fact, Facts } from './facts.tsx'
import './position-card.css'

interface PositionCardProps {
  /** Where tapping the card leads: the position's detail. */
  to: string
  title: ReactNode
  status: { label: string; tone: 'ok' | 'wait' | 'bad'; value: string }
  facts: readonly Fact[]
  testId: string
  id: string
}

/** One of the user's positions (a stake, a finance deposit) in a list: a tappable card with its status and figures. */
export function PositionCard({ to, title, status, facts, testId, id }: PositionCardProps) {
  return (
    <li>
      <Link className="card position-card" to={to} data-testid={testId} data-id={id} data-status={status.value}>
        <div className="position-head">
          <span className="position-title">{title}</span>
          <span className={`badge badge-${status.tone}`} data-testid={`${testId}-status`}>
            {status.label}
          </span>
        </div>
        <Facts facts={facts} />
      </Link>
    </li>
  )
}

/** The list the position cards go in. */
export function PositionList({ children, testId }: { children: ReactNode; testId: string }) {
  return (
    <ul className="position-list" data-testid={testId}>
      {children}
    </ul>
  )
}
