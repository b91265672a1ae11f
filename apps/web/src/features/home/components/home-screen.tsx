import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { LanguageSwitcher } from '@/components/language-switcher.tsx'
import { Page } from '@/components/page.tsx'
import { PrimaryButton } from '@/components/primary-button.tsx'
import { APP_NAME } from '@/lib/config.ts'
import { useSession } from '@/lib/session.ts'
import { useWalletModal } from '@/lib/wallet/wallet-modal.tsx'
import { useWalletState } from '@/lib/wallet/wallet-state.ts'
import { HomeFigures } from './home-figures.tsx'
import { HomeLinks } from './home-links.tsx'
import './home-screen.css'

/** The home screen; `news` (banners and the notice strip) comes from another feature, composed by the app. */
export function HomeScreen({ news }: { news?: ReactNode }) {
  const { t } = useTranslation()
  const { connected, connecting, disconnect } = useWalletState()
  const { setVisible } = useWalletModal()
  const { loginStatus, userInfo } = useSession()

  return (
    <Page title={APP_NAME}>
      <p className="home-tagline">{t('home.tagline')}</p>
      {news}
      <HomeFigures />
      <div className="card home-account">
        {loginStatus && userInfo ? (
          <>
            <span className="home-label">{t('home.address')}</span>
            <p className="home-address" data-testid="user-address">
              {userInfo.address}
            </p>
          </>
        ) : (
          <p className="home-hint">{t('home.signedOut')}</p>
        )}
        {connected ? (
          <button
            type="button"
            className="outline-button home-disconnect"
            data-testid="disconnect"
            onClick={() => disconnect().catch(console.error)}
          >
            {t('home.disconnect')}
          </button>
        ) : (
          <PrimaryButton data-testid="connect-wallet" disabled={connecting} onClick={() => setVisible(true)}>
            {connecting ? t('home.connecting') : t('home.connect')}
          </PrimaryButton>
        )}
      </div>
      <HomeLinks />
      <div className="card">
        <LanguageSwitcher />
      </div>
    </Page>
  )
}
