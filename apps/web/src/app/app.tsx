import type { ClientConfig } from '@solpledge/contract/client'
import { QueryClientProvider } from '@tanstack/react-query'
import { type ComponentType, useCallback, useEffect, useMemo, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { BrowserRouter, useLocation, useNavigate } from 'react-router'
import { PrimaryButton } from '@/components/primary-button.tsx'
import { ReceiptSheet } from '@/components/receipt-sheet.tsx'
import { Toaster } from '@/components/toaster.tsx'
import { UpdatePrompt } from '@/components/update-prompt.tsx'
import { afterFirstScreen } from '@/lib/after-first-screen.ts'
import { ClientConfigContext } from '@/lib/client-config.ts'
import { useWalletModal, WalletModalProvider } from '@/lib/wallet/wallet-modal.tsx'
import { loadWalletLayer, walletAtStartup } from './bootstrap.tsx'
import { queryClient } from './query-client.ts'
import { isConsolePath, Screens } from './router.tsx'
import type { WalletLayerProps } from './wallet-layer.tsx'

interface AppProps {
  config: ClientConfig
  inviteCode: string
}

/**
 * The shell: the screens paint from public data at once; the wallet layer joins beside them when it has loaded
 * (after the first paint when a wallet is there, else when the wallet picker opens).
 */
export function App({ config, inviteCode }: AppProps) {
  return (
    <>
      <ClientConfigContext value={config}>
        <QueryClientProvider client={queryClient}>
          <BrowserRouter>
            <WalletModalProvider>
              <Screens />
              <Wallet config={config} inviteCode={inviteCode} />
            </WalletModalProvider>
          </BrowserRouter>
        </QueryClientProvider>
        <ReceiptSheet />
      </ClientConfigContext>
      <Toaster />
      <UpdatePrompt />
      <ServiceWorker />
    </>
  )
}

/** Afterwards (docs/architecture.md "Offline and updates"): registers the service worker after the first screen. */
function ServiceWorker() {
  useEffect(
    () => afterFirstScreen(() => import('./service-worker.ts').then((m) => m.registerServiceWorker(), console.error)),
    [],
  )
  return null
}

function Wallet({ config, inviteCode }: AppProps) {
  // The operator console has its own login.
  const onConsole = isConsolePath(useLocation().pathname)
  // One function for the layer's lifetime (useNavigate's changes with each location).
  const navigate = useNavigate()
  const latestNavigate = useRef(navigate)
  latestNavigate.current = navigate
  const goHome = useCallback(() => void latestNavigate.current('/'), [])
  const { visible } = useWalletModal()
  const [Layer, setLayer] = useState<ComponentType<WalletLayerProps> | null>(null)
  // Asked for by a screen (the wallet picker opens): now. Otherwise, with a wallet there: after the first screen, so
  // that its render, chunks and data are not slowed down by the wallet layer's.
  const atStartup = walletAtStartup(config)
  useEffect(() => {
    if (!visible && !atStartup) return
    const load = () => void loadWalletLayer(config).then((layer) => setLayer(() => layer), console.error)
    if (visible) return load()
    return afterFirstScreen(load)
  }, [visible, atStartup, config])
  // The same element while its props stay: a navigation re-renders this component, not the wallet layer.
  return useMemo(
    () => Layer && <Layer config={config} inviteCode={inviteCode} onReset={goHome} userLogin={!onConsole} />,
    [Layer, config, inviteCode, goHome, onConsole],
  )
}

/**
 * The runtime config could not be loaded: say so, with a way to try again. `offline`: the server could not be reached
 * at all (no network; the service worker then served the page it keeps): the offline screen.
 */
export function StartupError({ offline }: { offline: boolean }) {
  const { t } = useTranslation(['ui', 'msg'])
  return (
    <div className="startup-error" role="alert" data-testid={offline ? 'offline' : 'startup-error'}>
      {offline ? (
        <>
          <h1>{t('offline.title')}</h1>
          <p>{t('offline.text')}</p>
        </>
      ) : (
        <p>{t('msg:common.failedConfig')}</p>
      )}
      <PrimaryButton onClick={() => window.location.reload()}>{t('common.retry')}</PrimaryButton>
    </div>
  )
}
