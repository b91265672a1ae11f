import type { MessageKey } from '@solpledge/contract/client'
import i18next from 'i18next'
import { showMessage, type ToastKind, toast } from './toast.ts'

/** Something to tell the user: a catalogue key with its placeholders, or the server's own (translated) msg. */
export type Notice = { key: MessageKey; params?: Record<string, string | number> } | { text: string }

export const noticeText = (notice: Notice) =>
  'text' in notice ? notice.text : i18next.t(`msg:${notice.key}`, notice.params ?? {})

export const showNotice = (notice: Notice, kind: ToastKind) =>
  kind === 'info' ? showMessage(noticeText(notice), 'info') : toast[kind](noticeText(notice))
