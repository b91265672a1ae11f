import { useWallet } from '@solana/wallet-adapter-react'
import { useTranslation } from 'react-i18next'
import { PrimaryButton } from '../../../components/primary-button.tsx'
import { useWalletModal } from '../../../lib/wallet/wallet-modal.tsx'

/** Shown instead of the user's assets while nobody is signed in. */
export function SignedOut() {
  const { t } = useTranslation()
  const { connected, connecting } = useWallet()
  const { setVisible } = useWalletModal()
  return (
    <div className="card assets-signed-out" data-testid="assets-signed-out">
      <p>{t('assets.signedOut')}</p>
      {!connected && (
        <PrimaryButton data-testid="connect-wallet" disabled={connecting} onClick={() => setVisible(true)}>
          {connecting ? t('home.connecting') : t('home.connect')}
        </PrimaryButton>
      )}
    </div>
  )
}
