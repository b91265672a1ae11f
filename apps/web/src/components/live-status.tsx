import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { LiveChannel } from '@/lib/live/channel.ts'
import './live-status.css'

/** How long the channel may be down before it is said: a quick reconnection shows nothing. */
const QUIET_MS = 1_500

/**
 * A quiet "reconnecting…" note while the live channel is down (docs/architecture.md "Live updates"): the screen keeps
 * what it shows, and says that it may be behind until the channel is back. It follows the channel's status itself, so
 * that a change of it re-renders the note alone, not the layout around it.
 */
export function LiveStatusNote({ channel }: { channel: LiveChannel }) {
  const { t } = useTranslation()
  const status = channel.useStatus()
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
