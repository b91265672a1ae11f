import { type ComponentType, isValidElement, lazy, Suspense } from 'react'
import { createBrowserRouter, matchRoutes } from 'react-router'
import { LoadingOverlay } from '@/components/loading-overlay.tsx'
import { ScreenShown } from './bootstrap.tsx'
import { Layout } from './layout.tsx'

type Load = () => Promise<{ default: ComponentType }>

/** A lazily loaded screen whose chunk can be asked for before React renders it (preloadScreen). */
function lazyScreen(load: Load) {
  // One import for both: React's lazy() asking again would walk the chunk's preload list a second time.
  let loading: ReturnType<Load> | undefined
  const once = () => {
    loading ??= load().catch((error: unknown) => {
      loading = undefined // a failed fetch is asked for again next time
      throw error
    })
    return loading
  }
  return Object.assign(lazy(once), { preload: once })
}

const HomeScreen = lazyScreen(() => import('./routes/home.tsx'))
const AssetsScreen = lazyScreen(() =>
  import('@/features/assets/components/assets-screen.tsx').then((module) => ({ default: module.AssetsScreen })),
)
const AssetDetailScreen = lazyScreen(() =>
  import('@/features/assets/components/asset-detail-screen.tsx').then((module) => ({
    default: module.AssetDetailScreen,
  })),
)
const NodeScreen = lazyScreen(() =>
  import('@/features/node/components/node-screen.tsx').then((module) => ({ default: module.NodeScreen })),
)
const NoticeListScreen = lazyScreen(() =>
  import('@/features/notice/components/notice-list-screen.tsx').then((module) => ({
    default: module.NoticeListScreen,
  })),
)
const NoticeDetailScreen = lazyScreen(() =>
  import('@/features/notice/components/notice-detail-screen.tsx').then((module) => ({
    default: module.NoticeDetailScreen,
  })),
)
const PledgeScreen = lazyScreen(() =>
  import('@/features/pledge/components/pledge-screen.tsx').then((module) => ({ default: module.PledgeScreen })),
)
const StakeOrderScreen = lazyScreen(() =>
  import('@/features/pledge/components/stake-order-screen.tsx').then((module) => ({
    default: module.StakeOrderScreen,
  })),
)
const StakeOutputScreen = lazyScreen(() =>
  import('@/features/pledge/components/stake-output-screen.tsx').then((module) => ({
    default: module.StakeOutputScreen,
  })),
)
const FinanceScreen = lazyScreen(() =>
  import('@/features/finance/components/finance-screen.tsx').then((module) => ({ default: module.FinanceScreen })),
)
const DepositDetailScreen = lazyScreen(() =>
  import('@/features/finance/components/deposit-detail-screen.tsx').then((module) => ({
    default: module.DepositDetailScreen,
  })),
)
const TeamScreen = lazyScreen(() =>
  import('@/features/team/components/team-screen.tsx').then((module) => ({ default: module.TeamScreen })),
)
const RankScreen = lazyScreen(() =>
  import('@/features/rank/components/rank-screen.tsx').then((module) => ({ default: module.RankScreen })),
)
const QuickTradeScreen = lazyScreen(() =>
  import('@/features/trade/components/quick-trade-screen.tsx').then((module) => ({
    default: module.QuickTradeScreen,
  })),
)
const OrderDetailScreen = lazyScreen(() =>
  import('@/features/trade/components/order-detail-screen.tsx').then((module) => ({
    default: module.OrderDetailScreen,
  })),
)
const SwapScreen = lazyScreen(() =>
  import('@/features/trade/components/swap-screen.tsx').then((module) => ({ default: module.SwapScreen })),
)
const NotFoundScreen = lazyScreen(() => import('./routes/not-found.tsx'))

/** The operator console (issue 7): its own chunk, never loaded by users' screens. */
const AdminApp = lazy(() => import('@/admin/app/admin-app.tsx'))

/** Where the operator console lives: /admin and everything below it. */
export const CONSOLE_PATH = '/admin'
export const isConsolePath = (pathname: string) =>
  pathname.toLowerCase() === CONSOLE_PATH || pathname.toLowerCase().startsWith(`${CONSOLE_PATH}/`)

export const router = createBrowserRouter([
  {
    path: `${CONSOLE_PATH}/*`,
    element: (
      <Suspense fallback={<LoadingOverlay />}>
        <AdminApp />
        <ScreenShown />
      </Suspense>
    ),
  },
  {
    element: <Layout />,
    children: [
      { index: true, element: <HomeScreen /> },
      { path: '/assets', element: <AssetsScreen /> },
      { path: '/assets/detail', element: <AssetDetailScreen /> },
      { path: '/node', element: <NodeScreen /> },
      { path: '/pledge', element: <PledgeScreen /> },
      { path: '/pledge/orderDetail', element: <StakeOrderScreen /> },
      { path: '/pledge/detail', element: <StakeOutputScreen /> },
      { path: '/finance', element: <FinanceScreen /> },
      { path: '/finance/detail', element: <DepositDetailScreen /> },
      { path: '/notice', element: <NoticeListScreen /> },
      { path: '/notice/detail/:id', element: <NoticeDetailScreen /> },
      { path: '/team', element: <TeamScreen /> },
      { path: '/rank', element: <RankScreen /> },
      { path: '/swap', element: <SwapScreen /> },
      { path: '/quick-trade/:type', element: <QuickTradeScreen /> },
      { path: '/quick-trade/detail/:id', element: <OrderDetailScreen /> },
      { path: '*', element: <NotFoundScreen /> },
    ],
  },
])

/**
 * Starts loading the chunk of the screen at `pathname` at once, in parallel with the language and the config, instead
 * of after them when the router first renders it.
 */
export function preloadScreen(pathname: string) {
  const leaf = matchRoutes(router.routes, pathname)?.at(-1)?.route.element
  if (isValidElement(leaf) && typeof leaf.type === 'object' && leaf.type !== null && 'preload' in leaf.type)
    (leaf.type as { preload: Load }).preload().catch(console.error)
}
