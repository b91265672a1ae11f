import { LoadingOverlay } from '../../../components/loading-overlay.tsx'
import { useConnectAtStartup } from '../hooks/use-connect-at-startup.ts'
import { useLogin } from '../hooks/use-login.ts'
import { BindDialog } from './bind-dialog.tsx'
import { WalletModal } from './wallet-modal.tsx'

interface WalletLoginProps {
  inviteCode: string
  /** Called when the account changes or the wallet disconnects: the app goes home. */
  onReset: () => void
}

/** Everything the wallet login shows: the wallet picker, the bind dialog and the overlay while signing in. */
export function WalletLogin({ inviteCode, onReset }: WalletLoginProps) {
  useConnectAtStartup()
  const { pending, needsBind, bind } = useLogin(onReset)
  return (
    <>
      <WalletModal />
      <BindDialog open={needsBind} initialCode={inviteCode} onBind={bind} />
      {pending && <LoadingOverlay />}
    </>
  )
}
