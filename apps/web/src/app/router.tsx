import { type ComponentType, lazy, Suspense } from 'react'
import { matchRoutes, type RouteObject, useRoutes } from 'react-router'
import { LoadingOverlay } from '@/components/loading-overlay.tsx'
import { ScreenShown } from './bootstrap.tsx'
import { Layout } from './layout.tsx'
import { CONSOLE, SCREENS, type Screen } from './screens.ts'

type Load = () => Promise<{ default: ComponentType }>

/**
 * The screens' modules (SCREENS and CONSOLE name them), each a chunk of its own that loads when asked for. The home
 * feature's screen is not one: the app's home route composes it with the notices (routes/home.tsx).
 */
const screenModules = import.meta.glob<Record<string, ComponentType>>([
  '/src/admin/app/admin-app.tsx',
  '/src/app/routes/*.tsx',
  '/src/features/*/components/*-screen.tsx',
  '!/src/features/home/components/home-screen.tsx',
])

/** A lazily loaded screen whose chunk can be asked for before React renders it (preloadScreen). */
function lazyScreen({ module, name }: Screen) {
  const load = screenModules[`/src/${module}`]
  if (!load) throw new Error(`No screen module ${module}`)
  // One import for both: React's lazy() asking again would walk the chunk's preload list a second time.
  let loading: ReturnType<Load> | undefined
  const once = () => {
    loading ??= load().then(
      (exports) => ({ default: exports[name] as ComponentType }),
      (error: unknown) => {
        loading = undefined // a failed fetch is asked for again next time
        throw error
      },
    )
    return loading
  }
  return Object.assign(lazy(once), { preload: once })
}

/** The operator console: never loaded by users' screens. */
const AdminApp = lazyScreen(CONSOLE)

/** Whether a path is the operator console's (CONSOLE: /admin and everything below it). */
const consolePath = CONSOLE.path.slice(0, -'/*'.length)
export const isConsolePath = (pathname: string) =>
  pathname.toLowerCase() === consolePath || pathname.toLowerCase().startsWith(`${consolePath}/`)

/**
 * The screens by path, for React Router's declarative mode (<BrowserRouter> in app.tsx): the app loads no data through
 * the router, and its data router (loaders, actions, fetchers) would more than double the router's share of the entry.
 */
const routes: RouteObject[] = [
  {
    path: CONSOLE.path,
    handle: { preload: AdminApp.preload },
    element: (
      <Suspense fallback={<LoadingOverlay />}>
        <AdminApp />
        <ScreenShown />
      </Suspense>
    ),
  },
  {
    element: <Layout />,
    children: SCREENS.map((screen) => {
      const Screen = lazyScreen(screen)
      return { path: screen.path, element: <Screen />, handle: { preload: Screen.preload } }
    }),
  },
]

/** The screen at the current location. */
export const Screens = () => useRoutes(routes)

/**
 * Starts loading the chunk of the screen at `pathname` at once, in parallel with the language and the config, instead
 * of after them when the router first renders it; gives the route's pattern ('/pledge', '/notice/detail/:id').
 */
export function preloadScreen(pathname: string): string | undefined {
  const route = matchRoutes(routes, pathname)?.at(-1)?.route
  const handle = route?.handle as { preload?: Load } | undefined
  handle?.preload?.().catch(console.error)
  return route?.path
}
