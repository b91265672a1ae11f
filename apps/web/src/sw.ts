/// <reference lib="webworker" />
// The service worker (docs/architecture.md "Offline and updates"), built by vite-plugin-pwa (build/pwa.ts). It
// precaches the app shell only and answers two kinds of request: a precached file, from the precache; a navigation,
// always from the network (the page the server writes carries the runtime config and the screen's preloads), and
// when the network fails the precached page, whose start finds no server and shows the offline screen. Everything
// else — /api (calls and the WebSocket), uploads, the screens' chunks, the chain's RPC — goes to the browser untouched.
import { cleanupOutdatedCaches, getCacheKeyForURL, matchPrecache, precache } from 'workbox-precaching'

declare const self: ServiceWorkerGlobalScope

/** Paths that are never a page of the app. */
const NOT_PAGES = /^\/(api|uploads|assets)(\/|$)/

// index.html, the entry and its imports, the languages' strings, the manifest and the icons (build/pwa.ts).
precache(self.__WB_MANIFEST)
cleanupOutdatedCaches()

self.addEventListener('fetch', (event) => {
  const { request } = event
  const url = new URL(request.url)
  if (url.origin !== self.location.origin || request.method !== 'GET') return
  if (request.mode === 'navigate') {
    if (NOT_PAGES.test(url.pathname)) return
    event.respondWith(fetch(request).catch(async () => (await matchPrecache('/index.html')) ?? Response.error()))
  } else if (getCacheKeyForURL(url.href)) {
    event.respondWith(matchPrecache(url.href).then((cached) => cached ?? fetch(request)))
  }
})

// A new version waits until the user asks for it ("A new version is ready — Reload"): never swapped mid-action.
self.addEventListener('message', (event) => {
  if ((event.data as { type?: string } | null)?.type === 'SKIP_WAITING') void self.skipWaiting()
})
