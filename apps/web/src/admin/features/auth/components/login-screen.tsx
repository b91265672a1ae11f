import { useTranslation } from 'react-i18next'
import { LanguageSwitcher } from '@/components/language-switcher.tsx'
import { PrimaryButton } from '@/components/primary-button.tsx'
import { useWalletModal } from '@/lib/wallet/wallet-modal.tsx'
import type { useAdminLogin } from '../hooks/use-admin-login.ts'

/** Sign-in to the console: connect the operator's wallet, then sign the server's message with it. */
export function LoginScreen({ login }: { login: ReturnType<typeof useAdminLogin> }) {
  const { t } = useTranslation('admin')
  const { setVisible } = useWalletModal()
  const { address, signIn } = login
  return (
    <main className="admin-login">
      <section className="card admin-login-card" data-testid="admin-login">
        <h1>{t('title')}</h1>
        <p className="muted-note">{t('login.text')}</p>
        {address ? (
          <>
            <p className="admin-address" data-testid="admin-login-address">
              {address}
            </p>
            <PrimaryButton
              data-testid="admin-sign-in"
              disabled={signIn.isPending}
              aria-busy={signIn.isPending}
              onClick={() => signIn.mutate()}
            >
              {signIn.isPending ? t('login.signing') : t('login.signIn')}
            </PrimaryButton>
          </>
        ) : (
          <PrimaryButton data-testid="admin-connect" onClick={() => setVisible(true)}>
            {t('login.connect')}
          </PrimaryButton>
        )}
        <a className="admin-back" href="/">
          {t('backToApp')}
        </a>
      </section>
      <LanguageSwitcher />
    </main>
  )
}
