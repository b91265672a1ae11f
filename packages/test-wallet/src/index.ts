import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'
import type { TestWalletOptions } from './wallet.ts'

export type { Prompt, TestWalletOptions } from './wallet.ts'

let bundle: Promise<string> | undefined

/** browser.ts and what it imports, as one classic script defining `solpledgeTestWallet.registerTestWallet`. */
function pageBundle() {
  bundle ??= build({
    entryPoints: [fileURLToPath(new URL('./browser.ts', import.meta.url))],
    bundle: true,
    write: false,
    format: 'iife',
    globalName: 'solpledgeTestWallet',
    platform: 'browser',
    target: 'es2022',
    logLevel: 'silent',
  }).then((result) => result.outputFiles[0]?.text ?? '')
  return bundle
}

/**
 * A script registering one test wallet per options (e.g. for Playwright's addInitScript): it runs in the page before
 * the app, as a wallet extension's content script does.
 */
export async function testWalletScript(wallets: TestWalletOptions[]) {
  const calls = wallets.map((options) => `solpledgeTestWallet.registerTestWallet(${JSON.stringify(options)});`)
  return `${await pageBundle()}\n${calls.join('\n')}`
}
