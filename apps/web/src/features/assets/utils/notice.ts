import { Code, type MessageKey } from '@solpledge/contract'
import i18next from 'i18next'
import { ApiError } from '../../../lib/api-client.ts'
import { showMessage, type ToastKind, toast } from '../../../lib/toast.ts'

/** Something to tell the user: a catalogue key with its placeholders, or the server's own (translated) msg. */
export type Notice = { key: MessageKey; params?: Record<string, string | number> } | { text: string }

export const noticeText = (notice: Notice) =>
  'text' in notice ? notice.text : i18next.t(`msg:${notice.key}`, notice.params ?? {})

export const showNotice = (notice: Notice, kind: ToastKind) =>
  kind === 'info' ? showMessage(noticeText(notice), 'info') : toast[kind](noticeText(notice))

/**
 * A user action failed (SPEC §8): the server's msg when it refused, else `fallback`. A -403 was already shown by the
 * API client when it ended the session.
 */
export function reportActionError(error: unknown, fallback: MessageKey = 'error.internal') {
  console.error(error)
  if (error instanceof ApiError) {
    if (error.code !== Code.SESSION_INVALID) toast.error(error.message)
    return
  }
  toast.error(i18next.t(`msg:${fallback}`))
}
