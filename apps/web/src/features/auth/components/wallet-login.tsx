import { LoadingOverlay } from '@/components/loading-overlay.tsx'
import { useConnectAtStartup } from '../hooks/use-connect-at-startup.ts'
import { useLogin } from '../hooks/use-login.ts'
import { BindDialog } from './bind-dialog.tsx'
import { WalletModal } from './wallet-modal.tsx'

/** The wallet picker and the connection at start-up: every screen has them, the user app and the console alike. */
export function WalletConnect(props: { inviteCode: string; signIn: boolean }) {
  useConnectAtStartup()
  return <WalletModal {...props} />
}

interface WalletLoginProps {
  inviteCode: string
  /** Called when the account changes or the wallet disconnects: the app goes home. */
  onReset: () => void
}

/** The user login: the bind dialog and the overlay while signing in. Not on the operator console's screens. */
export function WalletLogin({ inviteCode, onReset }: WalletLoginProps) {
  const { pending, needsBind, bind } = useLogin(onReset)
  return (
    <>
      <BindDialog open={needsBind} initialCode={inviteCode} onBind={bind} />
      {pending && <LoadingOverlay />}
    </>
  )
}
