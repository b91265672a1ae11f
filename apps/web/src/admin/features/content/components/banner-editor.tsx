import { adminApi } from '@solpledge/contract/admin'
import type { AdminBanner } from '@solpledge/contract/client'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useAllowed } from '@/admin/lib/api-client.ts'
import { parseInteger } from '@/admin/lib/units.ts'
import { LANGUAGE_NAMES } from '@/lib/language.ts'
import { useSaveBanner } from '../api/content.ts'
import { Check, EditorForm, useTranslationsEditor } from './editor-form.tsx'
import { ImageUpload } from './image-upload.tsx'

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
  const canSave = useAllowed(adminApi.adminBannerSave)
  const editor = useTranslationsEditor(FIELDS, banner?.translations ?? [])
  const { lang, texts, edit } = editor
  const [sort, setSort] = useState(String(banner?.sort ?? 0))
  const [link, setLink] = useState(banner?.link ?? '')
  const [visible, setVisible] = useState(banner?.visible ?? false)
  const save = useSaveBanner(onClose)
  const disabled = !canSave || save.isPending

  const submit = () => {
    const translations = editor.read()
    if (!translations) return
    const missingImage = translations.find((item) => item.image_url === '')
    if (missingImage)
      return editor.failAt(
        missingImage.lang,
        t('content.errors.imageRequired', { language: LANGUAGE_NAMES[missingImage.lang] }),
      )
    const order = parseInteger(sort, -1_000_000, 1_000_000)
    if (!order.ok) return editor.setError(t('content.errors.sort'))
    save.mutate({
      ...(banner && { id: banner.id }),
      type: banner?.type ?? HOME_CAROUSEL,
      sort: order.value,
      link: link.trim() || null,
      visible,
      translations,
    })
  }

  const image = texts[lang].image_url
  return (
    <EditorForm
      kind="banner"
      title={banner ? t('content.editBanner') : t('content.newBanner')}
      editor={editor}
      disabled={disabled}
      pending={save.isPending}
      onClose={onClose}
      onSubmit={submit}
    >
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
      <Check label={t('content.published')} checked={visible} disabled={disabled} onChange={setVisible} />
    </EditorForm>
  )
}
