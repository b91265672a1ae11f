import { useTranslation } from 'react-i18next'
import { EmptyState, Page } from '../../components/page.tsx'
import type en from '../../i18n/en.json'

export type ScreenKey = keyof typeof en.screens

/** A screen whose feature is not built yet: its title and an honest empty state, no made-up data. */
export default function PlaceholderScreen({ screen }: { screen: ScreenKey }) {
  const { t } = useTranslation()
  return (
    <Page title={t(`screens.${screen}`)}>
      <EmptyState />
    </Page>
  )
}
