import { lazy, Suspense } from 'react'
import { createBrowserRouter } from 'react-router'
import { LoadingOverlay } from '../components/loading-overlay.tsx'
import { Layout } from './layout.tsx'

const HomeScreen = lazy(() => import('./routes/home.tsx'))
const AssetsScreen = lazy(() =>
  import('../features/assets/components/assets-screen.tsx').then((module) => ({ default: module.AssetsScreen })),
)
const AssetDetailScreen = lazy(() =>
  import('../features/assets/components/asset-detail-screen.tsx').then((module) => ({
    default: module.AssetDetailScreen,
  })),
)
const NodeScreen = lazy(() =>
  import('../features/node/components/node-screen.tsx').then((module) => ({ default: module.NodeScreen })),
)
const NoticeListScreen = lazy(() =>
  import('../features/notice/components/notice-list-screen.tsx').then((module) => ({
    default: module.NoticeListScreen,
  })),
)
const NoticeDetailScreen = lazy(() =>
  import('../features/notice/components/notice-detail-screen.tsx').then((module) => ({
    default: module.NoticeDetailScreen,
  })),
)
const PledgeScreen = lazy(() =>
  import('../features/pledge/components/pledge-screen.tsx').then((module) => ({ default: module.PledgeScreen })),
)
const StakeOrderScreen = lazy(() =>
  import('../features/pledge/components/stake-order-screen.tsx').then((module) => ({
    default: module.StakeOrderScreen,
  })),
)
const StakeOutputScreen = lazy(() =>
  import('../features/pledge/components/stake-output-screen.tsx').then((module) => ({
    default: module.StakeOutputScreen,
  })),
)
const FinanceScreen = lazy(() =>
  import('../features/finance/components/finance-screen.tsx').then((module) => ({ default: module.FinanceScreen })),
)
const DepositDetailScreen = lazy(() =>
  import('../features/finance/components/deposit-detail-screen.tsx').then((module) => ({
    default: module.DepositDetailScreen,
  })),
)
const TeamScreen = lazy(() =>
  import('../features/team/components/team-screen.tsx').then((module) => ({ default: module.TeamScreen })),
)
const RankScreen = lazy(() =>
  import('../features/rank/components/rank-screen.tsx').then((module) => ({ default: module.RankScreen })),
)
const QuickTradeScreen = lazy(() =>
  import('../features/trade/components/quick-trade-screen.tsx').then((module) => ({
    default: module.QuickTradeScreen,
  })),
)
const OrderDetailScreen = lazy(() =>
  import('../features/trade/components/order-detail-screen.tsx').then((module) => ({
    default: module.OrderDetailScreen,
  })),
)
const SwapScreen = lazy(() =>
  import('../features/trade/components/swap-screen.tsx').then((module) => ({ default: module.SwapScreen })),
)
const NotFoundScreen = lazy(() => import('./routes/not-found.tsx'))

/** The operator console (issue 7): its own chunk, never loaded by users' screens. */
const AdminApp = lazy(() => import('../features/admin/admin-app.tsx'))

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
