import { PhantomWalletName } from '@solana/wallet-adapter-phantom'
import { SolanaMobileWalletAdapterWalletName } from '@solana-mobile/wallet-standard-mobile'

/**
 * Phantom's universal link that opens a page in Phantom's in-app browser, for a phone without the extension
 * (docs/product.md#disconnect-and-account-change), with the invite code the app was opened with kept in the query.
 */
export function phantomBrowseUrl(href: string, origin: string, inviteCode = '') {
  const page = new URL(href)
  if (inviteCode && !page.searchParams.has('code')) page.searchParams.set('code', inviteCode)
  return `https://phantom.app/ul/browse/${encodeURIComponent(page.href)}?ref=${encodeURIComponent(origin)}`
}

/**
 * The wallets the app accepts (Phantom only: docs/product.md#wallet-toasts): Phantom, and on Android the Mobile Wallet
 * Adapter, which opens the wallet app of the phone — Phantom's, for a Phantom user. Which app answers the adapter is
 * not something the page can learn, so it counts as Phantom's way in on Android; any other wallet gets 'Please switch
 * solana wallet'.
 */
export const isPhantomWallet = (name: string): boolean =>
  name === PhantomWalletName || name === SolanaMobileWalletAdapterWalletName

export const isMobileWalletAdapter = (name: string): boolean => name === SolanaMobileWalletAdapterWalletName

/** A phone's browser: Phantom is reached through its app there (the universal link, or the Mobile Wallet Adapter). */
export const isPhone = (userAgent = navigator.userAgent) => /android|iphone|ipad|ipod/i.test(userAgent)

/** Android's browser, not a web view (an app's in-app browser, Phantom's included, injects its wallet instead). */
export const isAndroidBrowser = (userAgent = navigator.userAgent) =>
  /android/i.test(userAgent) &&
  !/(WebView|Version\/.+(Chrome)\/(\d+)\.(\d+)\.(\d+)\.(\d+)|; wv\).+(Chrome)\/(\d+)\.(\d+)\.(\d+)\.(\d+))/i.test(
    userAgent,
  )
