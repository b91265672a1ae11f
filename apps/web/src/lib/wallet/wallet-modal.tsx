import { createContext, type ReactNode, useContext, useMemo, useState } from 'react'

interface WalletModalState {
  visible: boolean
  setVisible: (visible: boolean) => void
}

const WalletModalContext = createContext<WalletModalState | null>(null)

/**
 * Whether the wallet-selection modal is open; any screen can open it. The modal itself is in the wallet layer, which
 * the shell loads when the modal opens if it is not there yet.
 */
export function WalletModalProvider({ children }: { children: ReactNode }) {
  const [visible, setVisible] = useState(false)
  const value = useMemo(() => ({ visible, setVisible }), [visible])
  return <WalletModalContext value={value}>{children}</WalletModalContext>
}

export function useWalletModal() {
  const state = useContext(WalletModalContext)
  if (!state) throw new Error('useWalletModal must be used inside WalletModalProvider')
  return state
}
