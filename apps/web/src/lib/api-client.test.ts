import { adminApi } from '@solpledge/contract/admin'
import { API_BASE, api, IDEMPOTENCY_HEADER, SILENT_REJECT_CODES } from '@solpledge/contract/client'
import { describe, expect, it, vi } from 'vitest'
import { ApiError, createApiClient, expandPath } from './api-client.ts'

const reply =
  (body: unknown, status = 200) =>
  async () =>
    new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })

/** The Idempotency-Key each call sent. */
const sentKeys = (fetch: { mock: { calls: Parameters<typeof globalThis.fetch>[] } }) =>
  fetch.mock.calls.map(([, init]) => new Headers(init?.headers).get(IDEMPOTENCY_HEADER))

function client(fetch: typeof globalThis.fetch, timeoutMs?: number) {
  const onSessionInvalid = vi.fn<(msg: string) => void>()
  const fake = vi.fn(fetch)
  const headers = () => ({ 'app-key': 'k', 'accept-language': 'ja', 'User-Token': 't', 'User-Address': 'A' })
  return { onSessionInvalid, fetch: fake, ...createApiClient({ fetch: fake, headers, onSessionInvalid, timeoutMs }) }
}

describe('api client', () => {
  it('POSTs JSON with the session headers and resolves data on code 1', async () => {
    const c = client(reply({ code: 1, msg: 'ok', data: { is_reg: 1 } }))
    await expect(c.call(api.isReg, { address: 'A' })).resolves.toEqual({ is_reg: 1 })
    const [url, init] = c.fetch.mock.calls[0] ?? []
    expect(url).toBe(`${API_BASE}/user/login/is_reg`)
    expect(init?.method).toBe('POST')
    expect(init?.body).toBe('{"address":"A"}')
    expect(init?.headers).toEqual({
      'app-key': 'k',
      'accept-language': 'ja',
      'User-Token': 't',
      'User-Address': 'A',
      'content-type': 'application/json',
    })
    expect(init?.signal).toBeInstanceOf(AbortSignal)
  })

  it('send resolves the whole envelope so callers can show msg', async () => {
    const c = client(reply({ code: 1, msg: 'Login successful', data: { is_reg: 0 } }))
    await expect(c.send(api.isReg, { address: 'A' })).resolves.toEqual({
      code: 1,
      msg: 'Login successful',
      data: { is_reg: 0 },
    })
  })

  it('downloads a CSV file with the name the server gives it; a refusal instead is rejected with its message', async () => {
    const csv = 'time_utc,type\r\n'
    const file = client(
      async () =>
        new Response(csv, {
          headers: {
            'content-type': 'text/csv; charset=utf-8',
            'content-disposition': 'attachment; filename="solpledge-history.csv"',
          },
        }),
    )
    const { file: blob, name } = await file.download(api.moneyLogCsv, { coin: 'USDT' })
    expect([await blob.text(), name]).toEqual([csv, 'solpledge-history.csv'])
    expect(file.fetch.mock.calls[0]?.[1]?.body).toBe('{"coin":"USDT"}')
    const refused = client(reply({ code: 0, msg: 'Invalid parameters', key: 'error.invalidParams', data: null }))
    await expect(refused.download(api.moneyLogCsv, {})).rejects.toMatchObject({
      code: 0,
      message: 'Invalid parameters',
    })
  })

  it('fills the path segments of a route, e.g. the product of the pledge configuration', async () => {
    const c = client(reply({ code: 1, msg: '', data: { symbol: 'PLG' } }))
    await expect(c.call(api.pledgeConfig, {}, { params: { product: 'PLG' } })).resolves.toEqual({ symbol: 'PLG' })
    const [url, init] = c.fetch.mock.calls[0] ?? []
    expect(url).toBe(`${API_BASE}/invest/invest_pledge/PLG`)
    expect(init?.body).toBe('{}')
  })

  it("sends the action's Idempotency-Key on a route that moves money", async () => {
    const c = client(reply({ code: 1, msg: 'Withdrawal requested', data: {} }))
    const body = { coin: 'USDT', amount: '1000' }
    await c.send(api.withdraw, body, { idempotencyKey: 'action-1' })
    await c.send(api.withdraw, body, { idempotencyKey: 'action-1' })
    expect(sentKeys(c.fetch)).toEqual(['action-1', 'action-1'])
  })

  it('gives each call of such a route a fresh key when the caller has none', async () => {
    const c = client(reply({ code: 1, msg: '', data: {} }))
    await c.call(api.intentSubmit, { id: '1', signature: 's' })
    await c.call(api.intentSubmit, { id: '1', signature: 's' })
    const [a, b] = sentKeys(c.fetch)
    expect(a).toMatch(/^[0-9a-f]{32}$/)
    expect(b).toMatch(/^[0-9a-f]{32}$/)
    expect(b).not.toBe(a)
  })

  it('sends no key on a route that does not take one, even when given one', async () => {
    const c = client(reply({ code: 1, msg: '', data: { is_reg: 1 } }))
    await c.call(api.isReg, { address: 'A' }, { idempotencyKey: 'action-1' })
    expect(sentKeys(c.fetch)).toEqual([null])
  })

  it('GETs a path without a body', async () => {
    const c = client(reply({ code: 1, msg: '', data: { cluster: 'localnet' } }))
    await expect(c.get('/config')).resolves.toEqual({ cluster: 'localnet' })
    const [url, init] = c.fetch.mock.calls[0] ?? []
    expect(url).toBe(`${API_BASE}/config`)
    expect(init?.method).toBe('GET')
    expect(init?.body).toBeUndefined()
  })

  it.each(SILENT_REJECT_CODES)('rejects code %i with code, msg and key, without ending the session', async (code) => {
    const c = client(reply({ code, msg: `refused ${code}`, key: 'error.invalidParams', data: null }))
    const error = await c.call(api.isReg, { address: 'A' }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ApiError)
    expect(error).toMatchObject({ code, message: `refused ${code}`, key: 'error.invalidParams' })
    expect(c.onSessionInvalid).not.toHaveBeenCalled()
  })

  it('on -403 reports the msg to the session handler and rejects', async () => {
    const c = client(reply({ code: -403, msg: 'expired', data: null }))
    await expect(c.call(api.userIndex, {})).rejects.toMatchObject({ code: -403, message: 'expired' })
    expect(c.onSessionInvalid).toHaveBeenCalledWith('expired')
  })

  it("calls with a given session's headers, and its -403 leaves the current session alone", async () => {
    const c = client(reply({ code: -403, msg: 'expired', data: null }))
    const session = { token: 'old', address: 'B' }
    await expect(c.call(api.logout, {}, { session })).rejects.toMatchObject({ code: -403 })
    const [, init] = c.fetch.mock.calls[0] ?? []
    expect(init?.headers).toMatchObject({ 'User-Token': 'old', 'User-Address': 'B' })
    expect(c.onSessionInvalid).not.toHaveBeenCalled()
  })

  it('resolves any other code', async () => {
    const c = client(reply({ code: 7, msg: 'odd', data: { is_reg: 1 } }))
    await expect(c.call(api.isReg, { address: 'A' })).resolves.toEqual({ is_reg: 1 })
  })

  it("uploads a file as multipart form data under the route's field ('video')", async () => {
    const c = client(reply({ code: 1, msg: '', data: { url: '/uploads/a.png' } }))
    const file = new Blob([new Uint8Array([137, 80, 78, 71])], { type: 'image/png' })
    await expect(c.upload(adminApi.adminUpload, file, 'a.png')).resolves.toEqual({ url: '/uploads/a.png' })
    const [url, init] = c.fetch.mock.calls[0] ?? []
    expect(url).toBe(`${API_BASE}${adminApi.adminUpload.path}`)
    expect(init?.method).toBe('POST')
    const form = init?.body
    if (!(form instanceof FormData)) throw new Error('the body is not form data')
    const sent = form.get('video')
    expect(sent).toBeInstanceOf(File)
    expect((sent as File).name).toBe('a.png')
    expect((sent as File).size).toBe(4)
    // The browser sets the multipart content type with its boundary; a JSON one would break the upload.
    expect(init?.headers).not.toHaveProperty('content-type')
  })

  it('refuses to upload to a route that takes no file', async () => {
    const c = client(reply({ code: 1, msg: '', data: {} }))
    await expect(c.upload(api.isReg, new Blob(['x']), 'x.png')).rejects.toThrow(/takes no file/)
    expect(c.fetch).not.toHaveBeenCalled()
  })

  it('rejects HTTP errors', async () => {
    const c = client(reply({ code: 0, msg: 'boom', data: null }, 500))
    await expect(c.call(api.isReg, { address: 'A' })).rejects.toThrow('HTTP 500')
    expect(c.onSessionInvalid).not.toHaveBeenCalled()
  })

  it.each([
    [429, -102, 'error.rateLimited', 'Too many requests'],
    [408, -406, 'error.requestTimeout', 'Too slow'],
    [405, -406, 'error.methodNotAllowed', 'No GET here'],
  ])(
    'rejects an HTTP %i refusal with its envelope, so its msg is shown like any refusal',
    async (status, code, key, msg) => {
      const c = client(reply({ code, msg, key, data: null }, status))
      const error = await c.call(api.isReg, { address: 'A' }).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(ApiError)
      expect(error).toMatchObject({ code, message: msg, key })
      expect(c.onSessionInvalid).not.toHaveBeenCalled()
    },
  )

  it('rejects a 4xx whose body is not the envelope (a proxy page) as an HTTP error', async () => {
    const c = client(async () => new Response('<html>429</html>', { status: 429 }))
    await expect(c.call(api.isReg, { address: 'A' })).rejects.toThrow('HTTP 429')
  })

  it('rejects network errors as they are', async () => {
    const failure = new TypeError('Failed to fetch')
    const c = client(async () => {
      throw failure
    })
    await expect(c.call(api.isReg, { address: 'A' })).rejects.toBe(failure)
  })

  it('aborts a request that outlives the timeout', async () => {
    const c = client(
      (_input, init) =>
        new Promise((_resolve, reject) => init?.signal?.addEventListener('abort', () => reject(init.signal?.reason))),
      20,
    )
    await expect(c.call(api.isReg, { address: 'A' })).rejects.toMatchObject({ name: 'TimeoutError' })
  })
})

describe('expandPath', () => {
  it('replaces every :name segment with its encoded value and leaves other paths alone', () => {
    expect(expandPath('/invest/invest_pledge/:product', { product: 'PLG' })).toBe('/invest/invest_pledge/PLG')
    expect(expandPath('/a/:x/b/:y', { x: '1', y: 'a b/c' })).toBe('/a/1/b/a%20b%2Fc')
    expect(expandPath('/user/user/index')).toBe('/user/user/index')
  })

  it('refuses a segment without a value rather than calling a wrong path', () => {
    expect(() => expandPath('/invest/invest_pledge/:product')).toThrow(/:product/)
    expect(() => expandPath('/invest/invest_pledge/:product', { product: '' })).toThrow(/:product/)
  })
})
