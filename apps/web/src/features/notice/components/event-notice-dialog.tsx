import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Modal } from '@/components/modal.tsx'
import { useNotice } from '../api/get-notice.ts'
import { RichText } from './rich-text.tsx'
import './notice.css'

/** Event notices closed during this visit: each opens once per visit, not on every return to home. */
const closed = new Set<string>()

/**
 * The event notice dialog (docs/product.md#home) with its close button: it opens only for the notice the operator
 * flagged as the event notice; with none flagged (the default) it never opens.
 */
export function EventNoticeDialog({ eventId }: { eventId: string | null }) {
  const { t } = useTranslation()
  const [, rerender] = useState(0)
  const wanted = eventId !== null && !closed.has(eventId)
  const notice = useNotice(eventId ?? undefined)
  return (
    <Modal
      open={wanted && notice.data !== undefined}
      testId="event-notice"
      title={notice.data?.title ?? t('notice.event')}
      onClose={() => {
        if (eventId !== null) closed.add(eventId)
        rerender((n) => n + 1)
      }}
    >
      {notice.data && <RichText className="notice-body" html={notice.data.body} />}
    </Modal>
  )
}
