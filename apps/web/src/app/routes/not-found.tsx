import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { Page } from '@/components/page.tsx'

export default function NotFoundScreen() {
  const { t } = useTranslation()
  return (
    <Page title={t('screens.notFound')}>
      <div className="card not-found">
        <p>{t('notFound.text')}</p>
        <Link to="/">{t('notFound.home')}</Link>
      </div>
    </Page>
  )
}
