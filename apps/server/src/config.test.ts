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
