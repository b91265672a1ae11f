import { describe, expect, it } from 'vitest'
import { loadConfig, parseAdminAddresses } from './config.ts'

const A = '9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin'
const B = 'So11111111111111111111111111111111111111112'

describe('ADMIN_ADDRESSES', () => {
  it('reads address:role entries, spaces and empty entries ignored', () => {
    expect(parseAdminAddresses(` ${A}:admin , ${B}: viewer ,`)).toEqual([
      { address: A, role: 'admin' },
      { address: B, role: 'viewer' },
    ])
    expect(parseAdminAddresses(undefined)).toEqual([])
    expect(loadConfig({ ADMIN_ADDRESSES: `${A}:operator` }).adminAddresses).toEqual([{ address: A, role: 'operator' }])
  })
  it.each([A, `${A}:root`, `${A}:admin:x`, 'not-an-address:admin', `:admin`])('refuses "%s" at start', (value) => {
    expect(() => parseAdminAddresses(value)).toThrow(/ADMIN_ADDRESSES/)
  })
})

describe('CSP_CONNECT_SRC', () => {
  it('reads comma-separated http(s) and ws(s) URLs', () => {
    expect(loadConfig({}).cspConnectSrc).toEqual([])
    expect(
      loadConfig({ CSP_CONNECT_SRC: ' https://rpc.example.com/x , wss://rpc.example.com,' }).cspConnectSrc,
    ).toEqual(['https://rpc.example.com/x', 'wss://rpc.example.com'])
  })
  it.each(['rpc.example.com', 'javascript:alert(1)', "'unsafe-eval'", 'https://a.com; script-src *'])(
    'refuses "%s" at start',
    (value) => {
      expect(() => loadConfig({ CSP_CONNECT_SRC: value })).toThrow(/CSP_CONNECT_SRC/)
    },
  )
})
