import { useTranslation } from 'react-i18next'
import { useWalletModal } from '@/lib/wallet/wallet-modal.tsx'
import { useWalletState } from '@/lib/wallet/wallet-state.ts'
import { PrimaryButton } from './primary-button.tsx'
import './signed-out.css'

interface SignedOutProps {
  /** What the screen would show once signed in. */
  text: string
  testId: string
}

/** Shown in place of a user's own data while nobody is signed in, with a way to connect the wallet. */
export function SignedOut({ text, testId }: SignedOutProps) {
  const { t } = useTranslation()
  const { connected, connecting } = useWalletState()
  const { setVisible } = useWalletModal()
  return (
    <div className="card signed-out" data-testid={testId}>
      <p>{text}</p>
      {!connected && (
        <PrimaryButton data-testid="connect-wallet" disabled={connecting} onClick={() => setVisible(true)}>
          {connecting ? t('home.connecting') : t('home.connect')}
        </PrimaryButton>
      )}
    </div>
  )
}
