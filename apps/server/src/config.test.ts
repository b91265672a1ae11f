import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { getBase58Decoder } from '@solana/kit'
import { describe, expect, it } from 'vitest'
import { ConfigError, loadConfig, parseAdminAddresses, trustProxyOption } from './config.ts'
import type { StoredKeypair } from './lib/keys.ts'

const A = '9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin'
const B = 'So11111111111111111111111111111111111111112'
/** The chain npm start launched: the smallest valid configuration. */
const local = { SOLPLEDGE_LOCAL_CHAIN: '1' }

describe('ADMIN_ADDRESSES', () => {
  it('reads address:role entries, spaces and empty entries ignored', () => {
    expect(parseAdminAddresses(` ${A}:admin , ${B}: viewer ,`)).toEqual([
      { address: A, role: 'admin' },
      { address: B, role: 'viewer' },
    ])
    expect(parseAdminAddresses(undefined)).toEqual([])
    expect(loadConfig({ SOLPLEDGE_LOCAL_CHAIN: '1', ADMIN_ADDRESSES: `${A}:operator` }).adminAddresses).toEqual([
      { address: A, role: 'operator' },
    ])
  })
  it.each([A, `${A}:root`, `${A}:admin:x`, 'not-an-address:admin', `:admin`])('refuses "%s" at start', (value) => {
    expect(() => parseAdminAddresses(value)).toThrow(/ADMIN_ADDRESSES/)
  })
})

describe('TRUST_PROXY', () => {
  it("takes no proxy, a hop count, or the proxies' addresses and CIDRs", () => {
    expect(loadConfig(local).trustProxy).toBe(false)
    expect(loadConfig({ ...local, TRUST_PROXY: '0' }).trustProxy).toBe(false)
    expect(loadConfig({ ...local, TRUST_PROXY: '1' }).trustProxy).toBe(1)
    expect(loadConfig({ ...local, TRUST_PROXY: ' 127.0.0.1, 10.0.0.0/8 ,::1,fd00::/8,loopback' }).trustProxy).toEqual([
      '127.0.0.1',
      '10.0.0.0/8',
      '::1',
      'fd00::/8',
      'loopback',
    ])
  })
  it.each(['true', 'TRUE', '*', 'yes', '0.0.0.0/0', '::/0', '127.0.0.1,0.0.0.0/0'])(
    'refuses "%s", which would let any client choose its address, naming the setting',
    (value) => {
      expect(() => loadConfig({ ...local, TRUST_PROXY: value })).toThrow(ConfigError)
      expect(() => loadConfig({ ...local, TRUST_PROXY: value })).toThrow(/TRUST_PROXY.*any client could choose its/)
    },
  )
  it.each(['proxy.example.com', '10.0.0.0/33', '1.2.3', '10.0.0.1/8/1', '-1', '1.5'])('refuses "%s"', (value) => {
    expect(() => loadConfig({ ...local, TRUST_PROXY: value })).toThrow(/TRUST_PROXY .*addresses or CIDRs/)
  })
  it('a hop count trusts that many senders nearest the server, Fastify the list as it is', () => {
    const trust = trustProxyOption(2) as (address: string, hop: number) => boolean
    expect([0, 1, 2].map((hop) => trust('198.51.100.1', hop))).toEqual([true, true, false])
    expect(trustProxyOption(['127.0.0.1'])).toEqual(['127.0.0.1'])
    expect(trustProxyOption(false)).toBe(false)
  })
})

describe('REQUEST_TIMEOUT_MS', () => {
  it('defaults to 20 s and is at least 1 s', () => {
    expect(loadConfig(local).requestTimeoutMs).toBe(20_000)
    expect(loadConfig({ ...local, REQUEST_TIMEOUT_MS: '5000' }).requestTimeoutMs).toBe(5000)
    expect(() => loadConfig({ ...local, REQUEST_TIMEOUT_MS: '0' })).toThrow(/REQUEST_TIMEOUT_MS/)
  })
})

describe('CSP_CONNECT_SRC', () => {
  it('reads comma-separated http(s) and ws(s) URLs', () => {
    expect(loadConfig(local).cspConnectSrc).toEqual([])
    expect(
      loadConfig({ ...local, CSP_CONNECT_SRC: ' https://rpc.example.com/x , wss://rpc.example.com,' }).cspConnectSrc,
    ).toEqual(['https://rpc.example.com/x', 'wss://rpc.example.com'])
  })
  it.each(['rpc.example.com', 'javascript:alert(1)', "'unsafe-eval'", 'https://a.com; script-src *'])(
    'refuses "%s" at start',
    (value) => {
      expect(() => loadConfig({ ...local, CSP_CONNECT_SRC: value })).toThrow(ConfigError)
    },
  )
})

describe('loadConfig: safe by default', () => {
  const key = JSON.stringify(Array.from({ length: 32 }, (_, i) => i + 1))
  const keyAddress = () => loadConfig({ ...production, HOT_WALLET_KEY: key }).hotWalletKey?.address
  const production = {
    SOLANA_CLUSTER: 'devnet',
    SOLANA_RPC_URL: 'https://rpc.example.com/?api-key=secret',
    SOLANA_PUBLIC_RPC_URL: 'https://public.example.com',
    PRODUCT_MINT: A,
    USDT_MINT: B,
    TREASURY_ADDRESS: B.replace('2', '3'),
    HOT_WALLET_KEY: key,
    ROOT_ADDRESS: A,
    PUBLIC_URL: 'https://app.example.com',
  }
  const problems = (env: NodeJS.ProcessEnv) => {
    try {
      loadConfig(env)
    } catch (error) {
      if (error instanceof ConfigError) return error.problems
      throw error
    }
    return []
  }

  it('a complete production configuration: not the local chain, no demo, the browsers get the public RPC', () => {
    const config = loadConfig(production)
    expect(config).toMatchObject({
      localChain: false,
      seedDemo: false,
      cluster: 'devnet',
      rpcUrl: production.SOLANA_RPC_URL,
      wsUrl: 'wss://rpc.example.com/?api-key=secret',
      publicRpcUrl: 'https://public.example.com',
      publicWsUrl: 'wss://public.example.com',
      treasuryAddress: production.TREASURY_ADDRESS,
      rootAddress: A,
    })
    expect(config.hotWalletKey?.secretKey).toHaveLength(64)
    expect(loadConfig({ ...production, SEED_DEMO: '1' }).seedDemo).toBe(true)
    expect(loadConfig({ ...production, SOLANA_PUBLIC_WS_URL: 'wss://ws.example.com' }).publicWsUrl).toBe(
      'wss://ws.example.com',
    )
  })

  it('nothing set and no local-chain flag: every required setting is named, none is guessed', () => {
    expect(problems({})).toEqual([
      'SOLANA_CLUSTER is required: one of mainnet-beta, devnet, testnet',
      "SOLANA_RPC_URL is required off the local chain: the cluster's JSON-RPC endpoint for the server (a comma-separated list fails over)",
      expect.stringMatching(/^SOLANA_PUBLIC_RPC_URL is required off the local chain/),
      'PRODUCT_MINT is required off the local chain: the token mints',
      'USDT_MINT is required off the local chain: the token mints',
      expect.stringMatching(/^TREASURY_ADDRESS is required off the local chain/),
      expect.stringMatching(/^HOT_WALLET_KEY or HOT_WALLET_KEYFILE is required off the local chain/),
      expect.stringMatching(/^ROOT_ADDRESS is required off the local chain/),
      expect.stringMatching(/^PUBLIC_URL is required off the local chain/),
    ])
    expect(() => loadConfig({})).toThrow(/solpledge cannot start: 9 settings are missing or wrong/)
  })

  it('SOLANA_RPC_URL without SOLANA_CLUSTER is not taken for the local chain', () => {
    const { SOLANA_CLUSTER: _, ...rest } = production
    expect(problems(rest)).toEqual(['SOLANA_CLUSTER is required: one of mainnet-beta, devnet, testnet'])
  })

  it.each([
    ['SOLANA_CLUSTER=localnet without the flag', { SOLANA_CLUSTER: 'localnet' }, /^SOLANA_CLUSTER=localnet is only/],
    ['an unknown cluster', { SOLANA_CLUSTER: 'mainnet' }, /^SOLANA_CLUSTER must be one of/],
    ['the flag with a real cluster', { SOLPLEDGE_LOCAL_CHAIN: '1' }, /contradicts SOLANA_CLUSTER=devnet/],
    ['a crash hook in production', { CRASH_AT: 'sent' }, /^CRASH_AT is for the crash tests/],
    ['two hot-wallet keys', { HOT_WALLET_KEYFILE: '/k.json' }, /^HOT_WALLET_KEY and HOT_WALLET_KEYFILE are both set/],
    ['a short key', { HOT_WALLET_KEY: '[1,2,3]' }, /^HOT_WALLET_KEY has 3 bytes/],
    ['a key that is no key', { HOT_WALLET_KEY: 'not base58!' }, /^HOT_WALLET_KEY is neither/],
    [
      'a JSON key with a value over 255',
      { HOT_WALLET_KEY: JSON.stringify(Array(64).fill(256)) },
      /^HOT_WALLET_KEY is neither/,
    ],
    [
      'a missing key file',
      { HOT_WALLET_KEY: '', HOT_WALLET_KEYFILE: '/nonexistent/k.json' },
      /^HOT_WALLET_KEYFILE cannot be read/,
    ],
    ['a treasury that is no address', { TREASURY_ADDRESS: 'nope' }, /^TREASURY_ADDRESS must be a base58 address/],
    [
      'a treasury key of another wallet',
      { TREASURY_KEY: `[${Array(32).fill(7).join(',')}]` },
      /^TREASURY_KEY is the key of /,
    ],
    [
      'two treasury keys',
      { TREASURY_KEY: '[1]', TREASURY_KEYFILE: '/t.json' },
      /^TREASURY_KEY and TREASURY_KEYFILE are both/,
    ],
    [
      'an RPC URL that is not http',
      { SOLANA_RPC_URL: 'rpc.example.com' },
      /^SOLANA_RPC_URL must be a http or https URL/,
    ],
    ['a bad flag value', { SOLPLEDGE_LOCAL_CHAIN: 'yes' }, /^SOLPLEDGE_LOCAL_CHAIN must be 1/],
  ])('refuses %s, naming it', (_name, change, message) => {
    const found = problems({ ...production, ...change })
    expect(found.length).toBeGreaterThan(0)
    expect(found.some((p) => message.test(p))).toBe(true)
  })

  it('refuses the hot wallet as the treasury', () => {
    expect(problems({ ...production, TREASURY_ADDRESS: keyAddress() })).toEqual([
      'TREASURY_ADDRESS must not be the hot wallet: the treasury is the cold side',
    ])
  })

  it('takes an optional treasury key, which must be the key of TREASURY_ADDRESS (it signs the liabilities memo)', () => {
    expect(loadConfig(production).treasuryKey).toBeUndefined()
    const seed = JSON.stringify(Array(32).fill(9))
    const treasury = loadConfig({ ...production, HOT_WALLET_KEY: seed }).hotWalletKey?.address as string
    const config = loadConfig({ ...production, TREASURY_ADDRESS: treasury, TREASURY_KEY: seed })
    expect(config.treasuryKey?.address).toBe(treasury)
  })

  it('reads the hot-wallet key as JSON (64 bytes or a seed), base58 or a key file: one keypair', () => {
    const full = loadConfig(production).hotWalletKey as StoredKeypair
    const base58 = getBase58Decoder().decode(full.secretKey)
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'solpledge-key-'))
    const file = path.join(dir, 'hot.json')
    fs.writeFileSync(file, JSON.stringify([...full.secretKey]), { mode: 0o600 })
    try {
      for (const env of [
        { HOT_WALLET_KEY: JSON.stringify([...full.secretKey]) },
        { HOT_WALLET_KEY: base58 },
        { HOT_WALLET_KEY: '', HOT_WALLET_KEYFILE: file },
      ])
        expect(loadConfig({ ...production, ...env }).hotWalletKey).toEqual(full)
      const tampered = [...full.secretKey]
      tampered[40] = (tampered[40] ?? 0) ^ 1
      expect(problems({ ...production, HOT_WALLET_KEY: JSON.stringify(tampered) })).toEqual([
        'HOT_WALLET_KEY is not a keypair: its public half does not match its secret half',
      ])
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
    // The key never shows in a refusal.
    expect(problems({ ...production, HOT_WALLET_KEY: `${base58}x` }).join(' ')).not.toContain(base58)
  })

  it('refuses a key file its group or others may open, as ssh refuses a loose key, naming the mode', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'solpledge-key-'))
    const file = path.join(dir, 'hot.json')
    fs.writeFileSync(file, JSON.stringify([...(loadConfig(production).hotWalletKey as StoredKeypair).secretKey]))
    try {
      for (const [mode, text] of [
        [0o640, '0640'],
        [0o604, '0604'],
      ] as const) {
        fs.chmodSync(file, mode)
        expect(problems({ ...production, HOT_WALLET_KEY: '', HOT_WALLET_KEYFILE: file })).toEqual([
          `HOT_WALLET_KEYFILE ${file} is open to its group or others (mode ${text}): chmod 0400 it and chown it to ` +
            `the server's user (docs/operations.md, "Keys")`,
        ])
        expect(problems({ ...production, TREASURY_KEYFILE: file })[0]).toMatch(/^TREASURY_KEYFILE .* is open to/)
      }
      for (const mode of [0o400, 0o600]) {
        fs.chmodSync(file, mode)
        expect(problems({ ...production, HOT_WALLET_KEY: '', HOT_WALLET_KEYFILE: file })).toEqual([])
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })

  it('refuses a plain http PUBLIC_URL on mainnet-beta (sessions in clear), not on devnet or the local chain', () => {
    const mainnet = { ...production, SOLANA_CLUSTER: 'mainnet-beta' }
    expect(problems({ ...mainnet, PUBLIC_URL: 'https://app.example.com,http://app.example.com' })).toEqual([
      'PUBLIC_URL http://app.example.com is plain http on mainnet-beta: session tokens and signed messages would ' +
        'cross the network unencrypted; use https (behind the TLS proxy, docs/operations.md)',
    ])
    expect(problems({ ...mainnet, PUBLIC_URL: 'https://app.example.com' })).toEqual([])
    expect(problems({ ...production, PUBLIC_URL: 'http://app.example.com' })).toEqual([])
    expect(problems({ ...local, PUBLIC_URL: 'http://localhost:3000' })).toEqual([])
  })

  it('refuses an unknown LOG_LEVEL (the logger would throw later, without naming the setting)', () => {
    expect(problems({ ...production, LOG_LEVEL: 'verbose' })).toEqual([
      'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got "verbose"',
    ])
    expect(loadConfig({ ...production, LOG_LEVEL: 'debug' }).logLevel).toBe('debug')
  })

  it('prepares the hot statements unless DATABASE_PREPARED_STATEMENTS=off, and refuses another value', () => {
    expect(loadConfig(production).databasePreparedStatements).toBe(true)
    expect(loadConfig({ ...production, DATABASE_PREPARED_STATEMENTS: 'off' }).databasePreparedStatements).toBe(false)
    expect(problems({ ...production, DATABASE_PREPARED_STATEMENTS: 'no' })).toEqual([
      'DATABASE_PREPARED_STATEMENTS must be on or off, got "no"',
    ])
  })

  it('the local chain only with SOLPLEDGE_LOCAL_CHAIN=1: its defaults, a loopback RPC, no mints', () => {
    expect(loadConfig({ SOLPLEDGE_LOCAL_CHAIN: '1' })).toMatchObject({
      localChain: true,
      seedDemo: true,
      cluster: 'localnet',
      rpcUrl: 'http://127.0.0.1:8899',
      publicRpcUrl: 'http://127.0.0.1:8899',
      publicWsUrl: 'ws://127.0.0.1:8900',
      treasuryAddress: undefined,
      hotWalletKey: undefined,
    })
    expect(problems({ SOLPLEDGE_LOCAL_CHAIN: '1', SOLANA_RPC_URL: 'https://api.devnet.solana.com' })).toEqual([
      'SOLPLEDGE_LOCAL_CHAIN=1 needs the local chain on this machine, but SOLANA_RPC_URL is on api.devnet.solana.com',
    ])
    expect(problems({ SOLPLEDGE_LOCAL_CHAIN: '1', PRODUCT_MINT: A })).toEqual([
      'PRODUCT_MINT is for a real cluster: the local chain makes its own mints',
    ])
  })

  it('SOLANA_RPC_URL (or SOLANA_RPC_URLS) lists endpoints: the first is the primary, the others fallbacks', () => {
    const urls = ' https://a.example.com/?api-key=1 , https://b.example.com ,'
    for (const name of ['SOLANA_RPC_URL', 'SOLANA_RPC_URLS']) {
      const env: NodeJS.ProcessEnv = { ...production, SOLANA_RPC_URL: undefined, [name]: urls }
      expect(loadConfig(env)).toMatchObject({
        rpcUrl: 'https://a.example.com/?api-key=1',
        rpcFallbackUrls: ['https://b.example.com'],
        wsUrl: 'wss://a.example.com/?api-key=1',
      })
    }
    expect(loadConfig(production).rpcFallbackUrls).toEqual([])
    expect(problems({ ...production, SOLANA_RPC_URLS: 'https://b.example.com' })).toEqual([
      'SOLANA_RPC_URL and SOLANA_RPC_URLS are both set: list the endpoints once',
    ])
    expect(problems({ ...production, SOLANA_RPC_URL: 'https://a.example.com,b.example.com' })).toEqual([
      'SOLANA_RPC_URL must be a http or https URL, got "b.example.com"',
    ])
    expect(problems({ ...local, SOLANA_RPC_URL: 'http://127.0.0.1:8899,https://b.example.com' })).toEqual([
      'SOLPLEDGE_LOCAL_CHAIN=1 needs the local chain on this machine, but SOLANA_RPC_URL is on b.example.com',
    ])
  })

  it('the priority fee: from recent fees under a ceiling by default, or a fixed price; bad values refused', () => {
    expect(loadConfig(production).priorityFee).toEqual({ fixed: undefined, max: 1_000_000n, percentile: 75 })
    expect(
      loadConfig({
        ...production,
        PRIORITY_FEE_MICRO_LAMPORTS: '5000',
        PRIORITY_FEE_MAX_MICRO_LAMPORTS: '20000',
        PRIORITY_FEE_PERCENTILE: '90',
      }).priorityFee,
    ).toEqual({ fixed: 5_000n, max: 20_000n, percentile: 90 })
    expect(
      problems({
        ...production,
        PRIORITY_FEE_MICRO_LAMPORTS: '-1',
        PRIORITY_FEE_MAX_MICRO_LAMPORTS: '1.5',
        PRIORITY_FEE_PERCENTILE: '101',
      }),
    ).toEqual([
      'PRIORITY_FEE_MICRO_LAMPORTS must be a non-negative integer, got "-1"',
      'PRIORITY_FEE_MAX_MICRO_LAMPORTS must be a non-negative integer, got "1.5"',
      'PRIORITY_FEE_PERCENTILE must be a percentile from 0 to 100, got "101"',
    ])
    expect(
      problems({ ...production, PRIORITY_FEE_MICRO_LAMPORTS: '50000', PRIORITY_FEE_MAX_MICRO_LAMPORTS: '100' }),
    ).toEqual([
      'PRIORITY_FEE_MICRO_LAMPORTS (50000) is above its ceiling PRIORITY_FEE_MAX_MICRO_LAMPORTS (100): raise the ' +
        'ceiling or lower the price',
    ])
  })
})

describe('METRICS_PORT', () => {
  it('is off unless set, on loopback unless METRICS_HOST says otherwise, and never the public port', () => {
    expect(loadConfig(local)).toMatchObject({ metricsPort: 0, metricsHost: '127.0.0.1' })
    expect(loadConfig({ ...local, METRICS_PORT: '9464', METRICS_HOST: '10.0.0.5' })).toMatchObject({
      metricsPort: 9464,
      metricsHost: '10.0.0.5',
    })
    expect(() => loadConfig({ ...local, PORT: '8080', METRICS_PORT: '8080' })).toThrow(
      /METRICS_PORT must not be PORT \(8080\)/,
    )
  })
})

describe('deploy/env.example', () => {
  const file = path.resolve(import.meta.dirname, '../../../deploy/env.example')
  /** Every setting the file lists (`NAME=…` or `#NAME=…`) with the line above it, which must say its default or `required`. */
  const listed = () => {
    const lines = fs.readFileSync(file, 'utf8').split('\n')
    const entries = new Map<string, string>()
    lines.forEach((line, i) => {
      const name = /^#?([A-Z][A-Z0-9_]*)=/.exec(line)?.[1]
      if (name) entries.set(name, lines[i - 1] ?? '')
    })
    return entries
  }
  /** The settings loadConfig reads, recorded on the environment it is given: on the local chain and off it. */
  const read = () => {
    const names = new Set<string>()
    for (const env of [{}, local]) {
      const recorder = new Proxy(env as NodeJS.ProcessEnv, {
        get: (target, name) => {
          if (typeof name === 'string' && /^[A-Z][A-Z0-9_]*$/.test(name)) names.add(name)
          return target[name as string]
        },
      })
      try {
        loadConfig(recorder)
      } catch (error) {
        if (!(error instanceof ConfigError)) throw error
      }
    }
    return names
  }

  it('lists every setting the server reads, and none it does not read', () => {
    const entries = listed()
    const missing = [...read()].filter((name) => !entries.has(name))
    // Add each as two lines: `# NAME — default X: what it does` (or `— required: …`), then `#NAME=X` (or `NAME=…`).
    expect(missing, 'settings apps/server/src/config.ts reads that deploy/env.example does not list').toEqual([])
    const unread = [...entries.keys()].filter((name) => !read().has(name))
    expect(unread, 'settings deploy/env.example lists that apps/server/src/config.ts does not read').toEqual([])
  })

  it('says of each setting its default or that it is required, as the server refuses to start without it', () => {
    const entries = listed()
    for (const [name, above] of entries)
      expect(above, `the line above ${name}=`).toMatch(new RegExp(`^# ${name} — (required|default )`))
    const marked = new Set([...entries].filter(([, above]) => /— required/.test(above)).map(([name]) => name))
    // Off the local chain with nothing set: each "X is required" (or "X or Y is required") the server names.
    let problems: string[] = []
    try {
      loadConfig({})
    } catch (error) {
      problems = (error as ConfigError).problems
    }
    const required = problems.flatMap((p) => /^(\w+)(?: or (\w+))? is required/.exec(p)?.slice(1).filter(Boolean) ?? [])
    expect(required.length).toBeGreaterThan(5)
    for (const problem of problems.filter((p) => / is required/.test(p))) {
      const names = /^(\w+)(?: or (\w+))? is required/.exec(problem)?.slice(1).filter(Boolean) as string[]
      expect(
        names.some((name) => marked.has(name)),
        `${names.join(' or ')} is marked required`,
      ).toBe(true)
    }
    expect(
      [...marked].filter((name) => !required.includes(name)),
      'marked required, but not required',
    ).toEqual([])
  })
})
