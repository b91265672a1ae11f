import { describe, expect, it } from 'vitest'
import { isAndroidBrowser, isPhantomWallet, isPhone, phantomBrowseUrl } from './phantom.ts'

const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.5 Mobile/15E148 Safari/604.1'
const ANDROID_CHROME =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36'
const ANDROID_WEBVIEW =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/131.0.0.0 Mobile Safari/537.36'

describe("Phantom's way in", () => {
  it('links to the current page inside the Phantom browser', () => {
    expect(phantomBrowseUrl('https://app.example/team?code=Ab1', 'https://app.example')).toBe(
      'https://phantom.app/ul/browse/https%3A%2F%2Fapp.example%2Fteam%3Fcode%3DAb1?ref=https%3A%2F%2Fapp.example',
    )
  })

  it('keeps the invite code the app was opened with, and a code already in the page', () => {
    const link = phantomBrowseUrl('https://app.example/pledge', 'https://app.example', 'Inv1')
    const page = new URL(decodeURIComponent(new URL(link).pathname.slice('/ul/browse/'.length)))
    expect(page.href).toBe('https://app.example/pledge?code=Inv1')
    expect(phantomBrowseUrl('https://app.example/?code=Ab1', 'https://app.example', 'Inv1')).toContain('code%3DAb1')
  })

  it('accepts Phantom and the Mobile Wallet Adapter only', () => {
    expect(isPhantomWallet('Phantom')).toBe(true)
    expect(isPhantomWallet('Mobile Wallet Adapter')).toBe(true)
    expect(isPhantomWallet('Solflare')).toBe(false)
  })

  it("tells phones, Android's browser and web views apart", () => {
    expect([IPHONE, ANDROID_CHROME, ANDROID_WEBVIEW].map((ua) => isPhone(ua))).toEqual([true, true, true])
    expect(isPhone('Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0.0.0 Safari/537.36')).toBe(false)
    expect([IPHONE, ANDROID_CHROME, ANDROID_WEBVIEW].map((ua) => isAndroidBrowser(ua))).toEqual([false, true, false])
  })
})
