import type { MouseEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { Link, useLocation, useNavigate } from 'react-router'

interface BackLinkProps {
  /** Where back leads when the screen was opened directly (a shared link, a reload of the first page). */
  to: string
  /** The link's text: "Back" unless told (e.g. "All notices"). */
  label?: string
  testId?: string
}

/**
 * "‹ Back" at the top of a screen below another: one step back through the app's history when the user came from a
 * screen of the app (so the screen before keeps its tab and scroll), else to `to`.
 */
export function BackLink({ to, label, testId = 'back' }: BackLinkProps) {
  const { t } = useTranslation()
  const navigate = useNavigate()
  // React Router gives the entry the app opened on the key 'default': there is no screen of the app to go back to.
  const cameFromApp = useLocation().key !== 'default'
  const back = (event: MouseEvent) => {
    if (!cameFromApp) return
    event.preventDefault()
    navigate(-1)
  }
  return (
    <Link className="back-link" to={to} data-testid={testId} onClick={back}>
      {label ?? t('common.back')}
    </Link>
  )
}
