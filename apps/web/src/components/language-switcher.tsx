import { LANGUAGES } from '@solpledge/contract/client'
import { useTranslation } from 'react-i18next'
import { changeLanguage } from '@/lib/i18n.ts'
import { LANGUAGE_NAMES } from '@/lib/language.ts'
import './language-switcher.css'

/** The five languages, each named in its own words. */
export function LanguageSwitcher() {
  const { t, i18n } = useTranslation()
  return (
    <fieldset className="language-switcher" data-testid="language-switcher">
      <legend>{t('home.language')}</legend>
      {LANGUAGES.map((lng) => (
        <button
          key={lng}
          type="button"
          lang={lng}
          aria-pressed={i18n.resolvedLanguage === lng}
          onClick={() => changeLanguage(lng).catch(console.error)}
        >
          {LANGUAGE_NAMES[lng]}
        </button>
      ))}
    </fieldset>
  )
}
