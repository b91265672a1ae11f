import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { LiveStatus } from '@/lib/live/channel.ts'
import './live-status.css'

/** How long the channel may be down before it is said: a quick reconnection shows nothing. */
const QUIET_MS = 1_500

/**
 * A quiet "reconnecting…" note while the live channel is down (docs/architecture.md "Live updates"): the screen keeps
 * what it shows, and says that it may be behind until the channel is back.
 */
export function LiveStatusNote({ status }: { status: LiveStatus }) {
  const { t } = useTranslation()
  const [shown, setShown] = useState(false)
  useEffect(() => {
    if (status !== 'reconnecting') {
      setShown(false)
      return
    }
    const timer = setTimeout(() => setShown(true), QUIET_MS)
    return () => clearTimeout(timer)
  }, [status])
  return (
    <p className="live-status" role="status" data-testid="live-reconnecting" hidden={!shown}>
      {shown ? t('common.reconnecting') : ''}
    </p>
  )
}
