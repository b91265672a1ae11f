import { LazyMotion } from 'motion/react'
import { Component, type ReactNode, Suspense, use, useSyncExternalStore } from 'react'
import { useTranslation } from 'react-i18next'
import { RouterProvider } from 'react-router/dom'
import { LoadingOverlay } from '../components/loading-overlay.tsx'
import { PrimaryButton } from '../components/primary-button.tsx'
import { Toaster } from '../components/toaster.tsx'
import type { LoadedApp } from './bootstrap.ts'
import { isConsolePath, router } from './router.tsx'

interface AppProps {
  app: Promise<LoadedApp>
  inviteCode: string
}

const loadMotionFeatures = () => import('./motion-features.ts').then((module) => module.default)

const goHome = () => {
  router.navigate('/').catch(console.error)
}

const subscribeToRouter = (listener: () => void) => router.subscribe(listener)
/** Whether the router shows the operator console, which has its own login. */
const useOnConsole = () => useSyncExternalStore(subscribeToRouter, () => isConsolePath(router.state.location.pathname))

/** The shell: the loading overlay until the config and the wallet layer are there, then the routed app. */
export function App({ app, inviteCode }: AppProps) {
  return (
    <LazyMotion features={loadMotionFeatures} strict>
      <StartupBoundary>
        <Suspense fallback={<LoadingOverlay />}>
          <Started app={app} inviteCode={inviteCode} />
        </Suspense>
      </StartupBoundary>
      <Toaster />
    </LazyMotion>
  )
}

function Started({ app, inviteCode }: AppProps) {
  const { config, WalletLayer } = use(app)
  const onConsole = useOnConsole()
  return (
    <WalletLayer config={config} inviteCode={inviteCode} onReset={goHome} userLogin={!onConsole}>
      <RouterProvider router={router} />
    </WalletLayer>
  )
}

class StartupBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false }

  static getDerivedStateFromError() {
    return { failed: true }
  }

  override componentDidCatch(error: unknown) {
    console.error(error)
  }

  override render() {
    return this.state.failed ? <StartupError /> : this.props.children
  }
}

function StartupError() {
  const { t } = useTranslation(['ui', 'msg'])
  return (
    <div className="startup-error" role="alert">
      <p>{t('msg:common.failedConfig')}</p>
      <PrimaryButton onClick={() => window.location.reload()}>{t('common.retry')}</PrimaryButton>
    </div>
  )
}
