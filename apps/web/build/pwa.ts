// The installable app (docs/architecture.md "Offline and updates"): the web app manifest, its icons, and the service
// worker (src/sw.ts) built by vite-plugin-pwa with Workbox's precache of the app shell only.
import fs from 'node:fs'
import type { Plugin } from 'vite'
import { type ManifestOptions, VitePWA } from 'vite-plugin-pwa'
import { drawIcon, ICONS } from './icons.ts'

const LANGUAGES = ['en', 'zh', 'ja', 'ko', 'vi'] as const
const COLOR = '#0b0d17'

/** The interface's own strings of a language (src/i18n): the manifest's description comes from there. */
const strings = (language: string) =>
  JSON.parse(fs.readFileSync(new URL(`../src/i18n/${language}.json`, import.meta.url), 'utf8')) as {
    app: { description: string }
  }

/**
 * The manifest: name, icons (192, 512 and a maskable 512), a standalone window starting at '/', the page's colours.
 * The name is the brand in every language; the description is given in the five languages where the format allows
 * (`description_localized`, which browsers without it ignore).
 */
function manifest(): Partial<ManifestOptions> {
  return {
    id: '/',
    name: 'solpledge',
    short_name: 'solpledge',
    description: strings('en').app.description,
    lang: 'en',
    dir: 'ltr',
    start_url: '/',
    scope: '/',
    display: 'standalone',
    orientation: 'portrait',
    background_color: COLOR,
    theme_color: COLOR,
    categories: ['finance'],
    icons: ICONS.filter((icon) => icon.manifest).map((icon) => ({
      src: `/${icon.file}`,
      sizes: `${icon.size}x${icon.size}`,
      type: 'image/png',
      purpose: icon.maskable ? 'maskable' : 'any',
    })),
    ...{
      description_localized: Object.fromEntries(
        LANGUAGES.filter((language) => language !== 'en').map((language) => [
          language,
          { value: strings(language).app.description, lang: language },
        ]),
      ),
    },
  }
}

/** Writes the icons into the build (drawn, not stored) and names the home-screen icon iOS takes in the page. */
function appIcons(): Plugin {
  return {
    name: 'solpledge:app-icons',
    apply: 'build',
    generateBundle() {
      for (const icon of ICONS)
        this.emitFile({ type: 'asset', fileName: icon.file, source: drawIcon(icon.size, icon.maskable) })
    },
    transformIndexHtml: () => [
      {
        tag: 'link',
        attrs: { rel: 'apple-touch-icon', href: `/${ICONS.find((i) => !i.manifest)?.file}` },
        injectTo: 'head',
      },
    ],
  }
}

/**
 * The manifest, the icons and the service worker. `appShell` names the build's files the app starts with (its entry
 * and what the entry imports, and each language's strings: vite.config.ts's screenPreloads fills it once the bundle is
 * written): with index.html, the manifest and the icons, they are all the service worker precaches — never a screen's
 * chunk, never /api, never the chain. The worker is registered by the app after its first paint (src/app/app.tsx).
 */
export function pwa(appShell: Set<string>): Plugin[] {
  return [
    appIcons(),
    ...VitePWA({
      strategies: 'injectManifest',
      srcDir: 'src',
      filename: 'sw.ts',
      injectRegister: false,
      registerType: 'prompt',
      manifest: manifest(),
      manifestFilename: 'manifest.webmanifest',
      includeManifestIcons: false,
      injectManifest: {
        // (The manifest is added by the plugin itself.)
        globPatterns: ['**/*.{js,html,png}'],
        manifestTransforms: [
          (entries) => {
            if (appShell.size === 0) throw new Error('The app shell is unknown: screenPreloads must run first')
            const shell = (url: string) => appShell.has(url) || url === 'index.html' || url.startsWith('icons/')
            return { manifest: entries.filter((entry) => shell(entry.url)), warnings: [] }
          },
        ],
      },
    }),
  ]
}
