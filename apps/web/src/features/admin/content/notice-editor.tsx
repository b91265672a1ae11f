import { type AdminNotice, api, LANGUAGES, type Language } from '@solpledge/contract'
import { type FormEvent, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Modal } from '../../../components/modal.tsx'
import { Tabs } from '../../../components/tabs.tsx'
import { LANGUAGE_NAMES } from '../../../lib/language.ts'
import { useAllowed } from '../api/client.ts'
import { isoToLocal, localToIso } from '../utils/local-time.ts'
import { useSaveNotice } from './api.ts'
import { ImageUpload } from './image-upload.tsx'
import { readTranslations, TITLE_MAX, translationsDraft } from './translations.ts'

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
  const canSave = useAllowed(api.adminNoticeSave)
  const [lang, setLang] = useState<Language>('en')
  const [texts, setTexts] = useState(() => translationsDraft(FIELDS, notice?.translations ?? []))
  const [publishedAt, setPublishedAt] = useState(notice ? isoToLocal(notice.published_at) : '')
  const [visible, setVisible] = useState(notice?.visible ?? false)
  const [isEvent, setIsEvent] = useState(notice?.is_event ?? false)
  const [error, setError] = useState<string | null>(null)
  const save = useSaveNotice(onClose)
  const disabled = !canSave || save.isPending
  const edit = (field: (typeof FIELDS)[number], value: string) => {
    setTexts({ ...texts, [lang]: { ...texts[lang], [field]: value } })
    setError(null)
  }

  const submit = (event: FormEvent) => {
    event.preventDefault()
    const read = readTranslations(texts, FIELDS)
    if (!read.ok) {
      setLang(read.lang)
      return setError(t(`content.errors.${read.error}`, { language: LANGUAGE_NAMES[read.lang], max: TITLE_MAX }))
    }
    const at = localToIso(publishedAt)
    save.mutate({
      ...(notice && { id: notice.id }),
      translations: read.value,
      ...(at && { published_at: at }),
      visible,
      is_event: isEvent,
    })
  }

  return (
    <Modal
      open
      title={notice ? t('content.editNotice') : t('content.newNotice')}
      onClose={save.isPending ? undefined : onClose}
      testId="admin-notice-editor"
    >
      <form className="admin-form" onSubmit={submit} noValidate>
        <Tabs<Language>
          label={t('content.language')}
          testId="admin-notice-lang"
          value={lang}
          onChange={setLang}
          options={LANGUAGES.map((value) => ({
            value,
            label: texts[value].title.trim() ? `${value} ✓` : value,
          }))}
        />
        <label className="admin-field">
          <span>{t('content.title', { language: LANGUAGE_NAMES[lang] })}</span>
          <input
            data-testid="admin-notice-title"
            value={texts[lang].title}
            maxLength={TITLE_MAX}
            disabled={disabled}
            onChange={(event) => edit('title', event.target.value)}
          />
        </label>
        <label className="admin-field">
          <span>{t('content.body')}</span>
          <textarea
            data-testid="admin-notice-body"
            value={texts[lang].body}
            disabled={disabled}
            onChange={(event) => edit('body', event.target.value)}
          />
        </label>
        <p className="muted-note">{t('content.bodyHint')}</p>
        <ImageUpload
          testId="admin-notice-image"
          disabled={disabled}
          onUploaded={(url) => edit('body', `${texts[lang].body}\n<p><img src="${url}" alt=""></p>`)}
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
        <label className="admin-check">
          <input
            type="checkbox"
            data-testid="admin-notice-visible"
            checked={visible}
            disabled={disabled}
            onChange={(event) => setVisible(event.target.checked)}
          />
          {t('content.published')}
        </label>
        <label className="admin-check">
          <input
            type="checkbox"
            data-testid="admin-notice-event"
            checked={isEvent}
            disabled={disabled}
            onChange={(event) => setIsEvent(event.target.checked)}
          />
          {t('content.eventFlag')}
        </label>
        {error && (
          <p className="admin-error" data-testid="admin-notice-error">
            {error}
          </p>
        )}
        <button
          type="submit"
          className="admin-button admin-primary"
          data-testid="admin-notice-save"
          disabled={disabled}
        >
          {t('config.save')}
        </button>
      </form>
    </Modal>
  )
}
