import { LANGUAGES, type Language } from '@solpledge/contract/client'
import { type ReactNode, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Modal } from '@/components/modal.tsx'
import { Tabs } from '@/components/tabs.tsx'
import { LANGUAGE_NAMES } from '@/lib/language.ts'
import { readTranslations, TITLE_MAX, translationsDraft } from '../utils/translations.ts'

/**
 * The texts of a notice or a banner being edited, one language shown at a time, and the editor's error: `read`
 * gives the translations to send, or shows the first problem on its language and gives null.
 */
export function useTranslationsEditor<F extends string>(
  fields: readonly F[],
  stored: readonly ({ lang: Language } & Record<F, string>)[],
) {
  const { t } = useTranslation('admin')
  const [lang, setLang] = useState<Language>('en')
  const [texts, setTexts] = useState(() => translationsDraft(fields, stored))
  const [error, setError] = useState<string | null>(null)
  const edit = (field: F, value: string) => {
    setTexts({ ...texts, [lang]: { ...texts[lang], [field]: value } })
    setError(null)
  }
  /** Shows a problem of one language, on that language. */
  const failAt = (at: Language, message: string) => {
    setLang(at)
    setError(message)
  }
  const read = () => {
    const result = readTranslations(texts, fields)
    if (result.ok) return result.value
    failAt(result.lang, t(`content.errors.${result.error}`, { language: LANGUAGE_NAMES[result.lang], max: TITLE_MAX }))
    return null
  }
  return { lang, setLang, texts, edit, error, setError, failAt, read }
}

interface EditorFormProps {
  kind: 'notice' | 'banner' | 'campaign'
  title: string
  editor: ReturnType<typeof useTranslationsEditor<'title'>>
  disabled: boolean
  /** While saving the editor cannot be closed. */
  pending: boolean
  onClose: () => void
  onSubmit: () => void
  /** The fields after the title. */
  children: ReactNode
}

/** The editor of a notice, a banner or a campaign: the language tabs and title, its own fields, its error and 'save'. */
export function EditorForm({ kind, title, editor, disabled, pending, onClose, onSubmit, children }: EditorFormProps) {
  const { t } = useTranslation('admin')
  const { lang, setLang, texts, edit, error } = editor
  return (
    <Modal open title={title} onClose={pending ? undefined : onClose} testId={`admin-${kind}-editor`}>
      <form
        className="admin-form"
        onSubmit={(event) => {
          event.preventDefault()
          onSubmit()
        }}
        noValidate
      >
        <Tabs<Language>
          label={t('content.language')}
          testId={`admin-${kind}-lang`}
          value={lang}
          onChange={setLang}
          options={LANGUAGES.map((value) => ({ value, label: texts[value].title.trim() ? `${value} ✓` : value }))}
        />
        <label className="admin-field">
          <span>{t('content.title', { language: LANGUAGE_NAMES[lang] })}</span>
          <input
            data-testid={`admin-${kind}-title`}
            value={texts[lang].title}
            maxLength={TITLE_MAX}
            disabled={disabled}
            onChange={(event) => edit('title', event.target.value)}
          />
        </label>
        {children}
        {error && (
          <p className="admin-error" data-testid={`admin-${kind}-error`}>
            {error}
          </p>
        )}
        <button
          type="submit"
          className="admin-button admin-primary"
          data-testid={`admin-${kind}-save`}
          disabled={disabled}
        >
          {t('config.save')}
        </button>
      </form>
    </Modal>
  )
}

interface CheckProps {
  label: string
  checked: boolean
  disabled: boolean
  testId?: string
  onChange: (checked: boolean) => void
}

/** A checkbox of an editor, e.g. 'published'. */
export function Check({ label, checked, disabled, testId, onChange }: CheckProps) {
  return (
    <label className="admin-check">
      <input
        type="checkbox"
        data-testid={testId}
        checked={checked}
        disabled={disabled}
        onChange={(event) => onChange(event.target.checked)}
      />
      {label}
    </label>
  )
}
