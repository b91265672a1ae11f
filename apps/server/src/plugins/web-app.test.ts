import { describe, expect, it } from 'vitest'
import { acceptedEncoding, appPage, matchScreen } from './web-app.ts'

describe('matchScreen', () => {
  const screens = [
    '/admin/*',
    '/',
    '/pledge',
    '/pledge/detail',
    '/quick-trade/:type',
    '/quick-trade/detail/:id',
    '*',
  ].map((path) => ({ path }))
  const match = (pathname: string) => matchScreen(screens, pathname)?.path

  it.each([
    ['/', '/'],
    ['', '/'],
    ['/pledge', '/pledge'],
    ['/PLEDGE/', '/pledge'],
    ['/pledge/detail', '/pledge/detail'],
    ['/quick-trade/buy', '/quick-trade/:type'],
    // React Router ranks a static segment above a dynamic one, and needs every segment of a pattern.
    ['/quick-trade/detail/7', '/quick-trade/detail/:id'],
    ['/quick-trade/detail', '/quick-trade/:type'],
    ['/admin', '/admin/*'],
    ['/admin/users/1', '/admin/*'],
    ['/pledge/nothing/here', '*'],
    ['/administrator', '*'],
  ])('%s shows %s', (pathname, expected) => {
    expect(match(pathname)).toBe(expected)
  })

  it('finds nothing without a catch-all', () => {
    expect(matchScreen([{ path: '/' }], '/nope')).toBeUndefined()
  })
})

describe('acceptedEncoding', () => {
  it.each([
    ['gzip, deflate, br, zstd', 'br'],
    ['gzip', 'gzip'],
    ['br;q=0, gzip;q=0.5', 'gzip'],
    ['*', 'gzip'],
    ['identity', 'identity'],
    ['gzip;q=0', 'identity'],
    [undefined, 'identity'],
  ])('%s → %s', (header, expected) => {
    expect(acceptedEncoding(header)).toBe(expected)
  })
})

describe('appPage', () => {
  const config = {
    cluster: 'devnet',
    testnet: true,
    rpcUrl: 'https://rpc.example/</script>',
    wsUrl: 'wss://x',
    demoWallet: false,
    productSymbol: 'PLG',
  }

  it('writes no value that could close its element', () => {
    const page = appPage('<html><head></head><body></body></html>', config).bodies.identity.toString()
    // Its own end tag only.
    expect(page.split('</script>')).toHaveLength(2)
    expect(page).toContain('\\u003c/script>')
  })

  it('puts them at the end of a page without a head', () => {
    const page = appPage('<p>app</p>', config).bodies.identity.toString()
    expect(page).toMatch(/^<p>app<\/p><script id="client-config" type="application\/json">.*<\/script>$/)
  })
})
