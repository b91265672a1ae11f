import { useWallet } from '@solana/wallet-adapter-react'
import { useTranslation } from 'react-i18next'
import { PrimaryButton } from '../../../components/primary-button.tsx'
import { useWalletModal } from '../../../lib/wallet/wallet-modal.tsx'

/** Shown instead of buying and the user's nodes while nobody is signed in. */
export function SignedOut() {
  const { t } = useTranslation()
  const { connected, connecting } = useWallet()
  const { setVisible } = useWalletModal()
  return (
    <div className="card node-signed-out" data-testid="node-signed-out">
      <p>{t('node.signedOut')}</p>
      {!connected && (
        <PrimaryButton data-testid="connect-wallet" disabled={connecting} onClick={() => setVisible(true)}>
          {connecting ? t('home.connecting') : t('home.connect')}
        </PrimaryButton>
      )}
    </div>
  )
}
