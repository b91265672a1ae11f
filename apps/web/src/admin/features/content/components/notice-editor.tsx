import { adminApi } from '@solpledge/contract/admin'
import type { AdminNotice } from '@solpledge/contract/client'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useAllowed } from '@/admin/lib/api-client.ts'
import { isoToLocal, localToIso } from '@/admin/lib/local-time.ts'
import { toAllowedHtml } from '@/lib/rich-text.ts'
import { useSaveNotice } from '../api/content.ts'
import { Check, EditorForm, useTranslationsEditor } from './editor-form.tsx'
import { ImageUpload } from './image-upload.tsx'
import { RichEditor } from './rich-editor.tsx'

const FIELDS = ['title', 'body'] as const

interface NoticeEditorProps {
  /** The notice to edit, or null for a new one. */
  notice: AdminNotice | null
  onClose: () => void
}

/**
 * A notice in five languages (English required): title and rich-text body with uploaded images, the time it is
 * published from, published or not, and the event flag (the one notice opened as a dialog on the home screen).
 */
export function NoticeEditor({ notice, onClose }: NoticeEditorProps) {
  const { t } = useTranslation('admin')
  const canSave = useAllowed(adminApi.adminNoticeSave)
  const editor = useTranslationsEditor(FIELDS, notice?.translations ?? [])
  const { lang, texts, edit } = editor
  const [publishedAt, setPublishedAt] = useState(notice ? isoToLocal(notice.published_at) : '')
  const [visible, setVisible] = useState(notice?.visible ?? false)
  const [isEvent, setIsEvent] = useState(notice?.is_event ?? false)
  const save = useSaveNotice(onClose)
  const disabled = !canSave || save.isPending

  const submit = () => {
    const translations = editor.read()
    if (!translations) return
    const at = localToIso(publishedAt)
    save.mutate({
      ...(notice && { id: notice.id }),
      translations,
      ...(at && { published_at: at }),
      visible,
      is_event: isEvent,
    })
  }

  return (
    <EditorForm
      kind="notice"
      title={notice ? t('content.editNotice') : t('content.newNotice')}
      editor={editor}
      disabled={disabled}
      pending={save.isPending}
      onClose={onClose}
      onSubmit={submit}
    >
      <RichBodyField
        kind="notice"
        value={texts[lang].body}
        disabled={disabled}
        onChange={(body) => edit('body', body)}
      />
      <label className="admin-field">
        <span>{t('content.publishedAt')}</span>
        <input
          type="datetime-local"
          value={publishedAt}
          disabled={disabled}
          onChange={(event) => setPublishedAt(event.target.value)}
        />
      </label>
      <Check
        label={t('content.published')}
        testId="admin-notice-visible"
        checked={visible}
        disabled={disabled}
        onChange={setVisible}
      />
      <Check
        label={t('content.eventFlag')}
        testId="admin-notice-event"
        checked={isEvent}
        disabled={disabled}
        onChange={setIsEvent}
      />
    </EditorForm>
  )
}

interface RichBodyFieldProps {
  kind: 'notice' | 'campaign'
  value: string
  disabled: boolean
  onChange: (body: string) => void
}

/**
 * The rich-text body of a notice or a campaign in the WYSIWYG editor (only the markup the app renders), with uploaded
 * images added at its end.
 */
export function RichBodyField({ kind, value, disabled, onChange }: RichBodyFieldProps) {
  const { t } = useTranslation('admin')
  return (
    <>
      <RichEditor
        label={t('content.body')}
        testId={`admin-${kind}-body`}
        value={value}
        disabled={disabled}
        onChange={onChange}
      />
      <p className="muted-note">{t('content.bodyHint')}</p>
      <ImageUpload
        testId={`admin-${kind}-image`}
        disabled={disabled}
        onUploaded={(url) => onChange(toAllowedHtml(`${value}<p><img src="${url}" alt=""></p>`))}
      />
    </>
  )
}
