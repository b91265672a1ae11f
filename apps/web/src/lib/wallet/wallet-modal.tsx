import { createContext, type ReactNode, useContext, useMemo, useState } from 'react'

interface WalletModalState {
  visible: boolean
  setVisible: (visible: boolean) => void
}

const WalletModalContext = createContext<WalletModalState | null>(null)

/** Whether the wallet-selection modal is open; any screen below the wallet layer can open it. */
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
