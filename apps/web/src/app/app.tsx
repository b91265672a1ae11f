import type { ClientConfig } from '@solpledge/contract/client'
import { QueryClientProvider } from '@tanstack/react-query'
import { type ComponentType, useEffect, useState, useSyncExternalStore } from 'react'
import { useTranslation } from 'react-i18next'
import { RouterProvider } from 'react-router/dom'
import { PrimaryButton } from '@/components/primary-button.tsx'
import { Toaster } from '@/components/toaster.tsx'
import { ClientConfigContext } from '@/lib/client-config.ts'
import { useWalletModal, WalletModalProvider } from '@/lib/wallet/wallet-modal.tsx'
import { loadWalletLayer, useScreenShown, walletAtStartup } from './bootstrap.tsx'
import { queryClient } from './query-client.ts'
import { isConsolePath, router } from './router.tsx'
import type { WalletLayerProps } from './wallet-layer.tsx'

interface AppProps {
  config: ClientConfig
  inviteCode: string
}

const goHome = () => {
  router.navigate('/').catch(console.error)
}

const subscribeToRouter = (listener: () => void) => router.subscribe(listener)
/** Whether the router shows the operator console, which has its own login. */
const useOnConsole = () => useSyncExternalStore(subscribeToRouter, () => isConsolePath(router.state.location.pathname))

/**
 * The shell: the screens paint from public data at once; the wallet layer joins beside them when it has loaded
 * (after the first paint when a wallet is there, else when the wallet picker opens).
 */
export function App({ config, inviteCode }: AppProps) {
  return (
    <>
      <ClientConfigContext value={config}>
        <QueryClientProvider client={queryClient}>
          <WalletModalProvider>
            <RouterProvider router={router} />
            <Wallet config={config} inviteCode={inviteCode} />
          </WalletModalProvider>
        </QueryClientProvider>
      </ClientConfigContext>
      <Toaster />
    </>
  )
}

function Wallet({ config, inviteCode }: AppProps) {
  const onConsole = useOnConsole()
  const { visible } = useWalletModal()
  const [Layer, setLayer] = useState<ComponentType<WalletLayerProps> | null>(null)
  const shown = useScreenShown()
  // Asked for by a screen (the wallet picker opens): now. Otherwise, with a wallet there: once the first screen has
  // painted, so its chunks and data are not slowed down by the wallet layer's.
  const later = shown && walletAtStartup(config)
  useEffect(() => {
    if (!visible && !later) return
    const load = () => loadWalletLayer(config).then((layer) => setLayer(() => layer), console.error)
    if (visible) return void load()
    let timer: ReturnType<typeof setTimeout> | undefined
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(load)
    })
    return () => {
      cancelAnimationFrame(frame)
      clearTimeout(timer)
    }
  }, [visible, later, config])
  return Layer && <Layer config={config} inviteCode={inviteCode} onReset={goHome} userLogin={!onConsole} />
}

/** The runtime config could not be loaded: say so, with a way to try again. */
export function StartupError() {
  const { t } = useTranslation(['ui', 'msg'])
  return (
    <div className="startup-error" role="alert">
      <p>{t('msg:common.failedConfig')}</p>
      <PrimaryButton onClick={() => window.location.reload()}>{t('common.retry')}</PrimaryButton>
    </div>
  )
}
