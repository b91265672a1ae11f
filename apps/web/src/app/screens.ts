/** A screen of the phone app: the path React Router matches below the layout, and where the screen is exported. */
export interface Screen {
  /**
   * React Router's pattern: static segments, `:name` for any one segment, a last `*` for whatever follows ('*' alone:
   * any other path).
   */
  path: string
  /** The module under src/ that exports the screen. */
  module: string
  /** The screen's export in that module. */
  name: string
}

/** The operator console (docs/admin-console.md): /admin and everything below it, its own app in a chunk of its own. */
export const CONSOLE: Screen = { path: '/admin/*', module: 'admin/app/admin-app.tsx', name: 'default' }

/**
 * Every screen of the phone app, one table for two readers: the router renders them (router.tsx), and the build writes
 * which files each one needs (vite.config.ts, `screenPreloads`) so the server can name them in the page it sends for
 * that path, and a phone fetches the screen with the app instead of after it (apps/server/src/plugins/web-app.ts).
 * Plain data: the build's config reads it too.
 */
export const SCREENS: readonly Screen[] = [
  { path: '/', module: 'app/routes/home.tsx', name: 'default' },
  { path: '/assets', module: 'features/assets/components/assets-screen.tsx', name: 'AssetsScreen' },
  { path: '/assets/detail', module: 'features/assets/components/asset-detail-screen.tsx', name: 'AssetDetailScreen' },
  { path: '/node', module: 'features/node/components/node-screen.tsx', name: 'NodeScreen' },
  { path: '/pledge', module: 'features/pledge/components/pledge-screen.tsx', name: 'PledgeScreen' },
  {
    path: '/pledge/orderDetail',
    module: 'features/pledge/components/stake-order-screen.tsx',
    name: 'StakeOrderScreen',
  },
  { path: '/pledge/detail', module: 'features/pledge/components/stake-output-screen.tsx', name: 'StakeOutputScreen' },
  { path: '/pledge/history', module: 'features/pledge/components/history-screen.tsx', name: 'HistoryScreen' },
  { path: '/finance', module: 'features/finance/components/finance-screen.tsx', name: 'FinanceScreen' },
  {
    path: '/finance/detail',
    module: 'features/finance/components/deposit-detail-screen.tsx',
    name: 'DepositDetailScreen',
  },
  { path: '/notice', module: 'features/notice/components/notice-list-screen.tsx', name: 'NoticeListScreen' },
  {
    path: '/notice/detail/:id',
    module: 'features/notice/components/notice-detail-screen.tsx',
    name: 'NoticeDetailScreen',
  },
  { path: '/campaign', module: 'features/notice/components/campaign-screen.tsx', name: 'CampaignScreen' },
  { path: '/team', module: 'features/team/components/team-screen.tsx', name: 'TeamScreen' },
  { path: '/rank', module: 'features/rank/components/rank-screen.tsx', name: 'RankScreen' },
  { path: '/swap', module: 'features/trade/components/swap-screen.tsx', name: 'SwapScreen' },
  { path: '/quick-trade/:type', module: 'features/trade/components/quick-trade-screen.tsx', name: 'QuickTradeScreen' },
  {
    path: '/quick-trade/detail/:id',
    module: 'features/trade/components/order-detail-screen.tsx',
    name: 'OrderDetailScreen',
  },
  { path: '*', module: 'app/routes/not-found.tsx', name: 'default' },
]
