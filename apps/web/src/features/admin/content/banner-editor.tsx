import { type AdminBanner, api, LANGUAGES, type Language } from '@solpledge/contract'
import { type FormEvent, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Modal } from '../../../components/modal.tsx'
import { Tabs } from '../../../components/tabs.tsx'
import { LANGUAGE_NAMES } from '../../../lib/language.ts'
import { useAllowed } from '../api/client.ts'
import { parseInteger } from '../utils/units.ts'
import { useSaveBanner } from './api.ts'
import { ImageUpload } from './image-upload.tsx'
import { readTranslations, TITLE_MAX, translationsDraft } from './translations.ts'

const FIELDS = ['title', 'image_url'] as const
/** The home carousel: the one place banners show today. */
const HOME_CAROUSEL = 1

interface BannerEditorProps {
  banner: AdminBanner | null
  onClose: () => void
}

/**
 * A banner: per language a caption and an image (uploaded, a path of the site or an https URL; English required),
 * where a tap leads, its place in the carousel and whether it is published.
 */
export function BannerEditor({ banner, onClose }: BannerEditorProps) {
  const { t } = useTranslation('admin')
  const canSave = useAllowed(api.adminBannerSave)
  const [lang, setLang] = useState<Language>('en')
  const [texts, setTexts] = useState(() => translationsDraft(FIELDS, banner?.translations ?? []))
  const [sort, setSort] = useState(String(banner?.sort ?? 0))
  const [link, setLink] = useState(banner?.link ?? '')
  const [visible, setVisible] = useState(banner?.visible ?? false)
  const [error, setError] = useState<string | null>(null)
  const save = useSaveBanner(onClose)
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
    const missingImage = read.value.find((item) => item.image_url === '')
    if (missingImage) {
      setLang(missingImage.lang)
      return setError(t('content.errors.imageRequired', { language: LANGUAGE_NAMES[missingImage.lang] }))
    }
    const order = parseInteger(sort, -1_000_000, 1_000_000)
    if (!order.ok) return setError(t('content.errors.sort'))
    save.mutate({
      ...(banner && { id: banner.id }),
      type: banner?.type ?? HOME_CAROUSEL,
      sort: order.value,
      link: link.trim() || null,
      visible,
      translations: read.value,
    })
  }

  const image = texts[lang].image_url
  return (
    <Modal
      open
      title={banner ? t('content.editBanner') : t('content.newBanner')}
      onClose={save.isPending ? undefined : onClose}
      testId="admin-banner-editor"
    >
      <form className="admin-form" onSubmit={submit} noValidate>
        <Tabs<Language>
          label={t('content.language')}
          testId="admin-banner-lang"
          value={lang}
          onChange={setLang}
          options={LANGUAGES.map((value) => ({ value, label: texts[value].title.trim() ? `${value} ✓` : value }))}
        />
        <label className="admin-field">
          <span>{t('content.title', { language: LANGUAGE_NAMES[lang] })}</span>
          <input
            data-testid="admin-banner-title"
            value={texts[lang].title}
            maxLength={TITLE_MAX}
            disabled={disabled}
            onChange={(event) => edit('title', event.target.value)}
          />
        </label>
        <label className="admin-field">
          <span>{t('content.image')}</span>
          <input
            data-testid="admin-banner-image-url"
            value={image}
            disabled={disabled}
            placeholder="/uploads/… https://…"
            onChange={(event) => edit('image_url', event.target.value)}
          />
        </label>
        {image && <img className="admin-image-preview" src={image} alt="" />}
        <ImageUpload testId="admin-banner-image" disabled={disabled} onUploaded={(url) => edit('image_url', url)} />
        <div className="admin-fields">
          <label className="admin-field">
            <span>{t('content.link')}</span>
            <input
              value={link}
              disabled={disabled}
              placeholder="/pledge"
              onChange={(event) => setLink(event.target.value)}
            />
          </label>
          <label className="admin-field">
            <span>{t('content.sort')}</span>
            <input
              inputMode="numeric"
              value={sort}
              disabled={disabled}
              onChange={(event) => setSort(event.target.value)}
            />
          </label>
        </div>
        <label className="admin-check">
          <input
            type="checkbox"
            checked={visible}
            disabled={disabled}
            onChange={(event) => setVisible(event.target.checked)}
          />
          {t('content.published')}
        </label>
        {error && <p className="admin-error">{error}</p>}
        <button
          type="submit"
          className="admin-button admin-primary"
          data-testid="admin-banner-save"
          disabled={disabled}
        >
          {t('config.save')}
        </button>
      </form>
    </Modal>
  )
}
