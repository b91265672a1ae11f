import { type ComponentType, Suspense } from 'react'
import { matchRoutes, type RouteObject, useRoutes } from 'react-router'
import { LoadingOverlay } from '@/components/loading-overlay.tsx'
import { ScreenShown } from './bootstrap.tsx'
import { Layout } from './layout.tsx'
import { type Load, ScreenOf, screenChunk } from './screen-chunk.tsx'
import { CONSOLE, SCREENS, type Screen } from './screens.ts'

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

/** The chunk of one of SCREENS (or the CONSOLE). */
function chunkOf({ module, name }: Screen) {
  const load = screenModules[`/src/${module}`]
  if (!load) throw new Error(`No screen module ${module}`)
  return screenChunk(load, name)
}

/** The operator console: never loaded by users' screens. */
const adminApp = chunkOf(CONSOLE)

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
    handle: { preload: adminApp.preload },
    element: (
      <Suspense fallback={<LoadingOverlay />}>
        <ScreenOf chunk={adminApp} />
        <ScreenShown />
      </Suspense>
    ),
  },
  {
    element: <Layout />,
    children: SCREENS.map((screen) => {
      const chunk = chunkOf(screen)
      return { path: screen.path, element: <ScreenOf chunk={chunk} />, handle: { preload: chunk.preload } }
    }),
  },
]

/** The screen at the current location. */
export const Screens = () => useRoutes(routes)

/**
 * Starts loading the chunk of the screen at `pathname` at once, in parallel with the language and the config, instead
 * of after them when the router first renders it; gives the route's pattern ('/pledge', '/notice/detail/:id') and
 * the chunk's loading (settles when it is here or has failed).
 */
export function preloadScreen(pathname: string): { pattern: string | undefined; loaded: Promise<unknown> } {
  const route = matchRoutes(routes, pathname)?.at(-1)?.route
  const handle = route?.handle as { preload?: Load } | undefined
  const loaded = handle?.preload?.().catch(console.error) ?? Promise.resolve()
  return { pattern: route?.path, loaded }
}
