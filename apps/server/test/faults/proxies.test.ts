// The proxy configurations shipped in deploy/ (docs/operations.md, "TLS reverse proxy"), run or checked by the real
// binaries from Debian's packages (installed with apt-get when missing and root, as scripts/test.mjs installs Chromium):
// - deploy/haproxy.cfg, its ports and certificate changed, in front of two instances on one PostgreSQL. Instance b's
//   RPC becomes unreachable (the probe's scenario): its readiness check fails and HAProxy's active check takes it out;
//   clients forging X-Forwarded-For on every call then get no answer ≥ 500, are rate limited by their real address,
//   and the audit log records that address; their top-ups are credited, and the live channel through HAProxy (upgraded
//   over TLS, signed in) tells of each. b's RPC comes back and so does b.
// - deploy/nginx.conf: `nginx -t`, then nginx itself in front of an echo server: the instance sees X-Forwarded-For as
//   the client's address only, whatever the client sent, and WebSocket upgrade headers passed on (a real WebSocket
//   through it too).
// - deploy/Caddyfile: `caddy validate`.
import { execFileSync, spawn } from 'node:child_process'
import fs from 'node:fs'
import http from 'node:http'
import https from 'node:https'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { Keypair } from '@solana/web3.js'
import { API_BASE, api, Code, HEALTH_PATHS, LIVE_PATH, LOGIN_TYPE, type PaymentIntent } from '@solpledge/contract'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { WebSocket, WebSocketServer } from 'ws'
// @ts-expect-error plain ESM helpers shared with the npm scripts
import { debianTool, freePort } from '../../../../scripts/lib.mjs'
import { type Cluster, cuttableRpc, type Instance, startCluster, until } from '../fixtures/instances.ts'
import { TestWallet } from '../helpers.ts'
import { LiveTestClient } from '../live-client.ts'
import { pay } from '../money.ts'

const ROOT = path.resolve(import.meta.dirname, '../../../..')
const DEPLOY = path.join(ROOT, 'deploy')

/** The tool's path, installed from Debian's packages when missing (and root); the test fails without it. */
function tool(binary: string, pkg: string): string {
  const found = debianTool(binary, pkg) as string | null
  if (!found) throw new Error(`${binary} is missing and could not be installed: apt-get install ${pkg}`)
  return found
}

/** `text` with each [from, to] replaced exactly once: a shipped file that no longer has the line fails the test. */
function adapt(text: string, replacements: [string, string][]) {
  return replacements.reduce((result, [from, to]) => {
    const count = result.split(from).length - 1
    if (count !== 1) throw new Error(`expected "${from}" once in the shipped file, found it ${count} times`)
    return result.replace(from, to)
  }, text)
}

/** A self-signed certificate for 127.0.0.1 (openssl), as files: certificate, key, and both in one (HAProxy). */
function selfSignedCertificate(dir: string) {
  const [cert, key, both] = ['cert.pem', 'key.pem', 'both.pem'].map((name) => path.join(dir, name)) as [
    string,
    string,
    string,
  ]
  execFileSync('openssl', [
    ...['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '2'],
    ...['-subj', '/CN=127.0.0.1', '-keyout', key, '-out', cert],
  ])
  fs.writeFileSync(both, fs.readFileSync(cert, 'utf8') + fs.readFileSync(key, 'utf8'))
  return { cert, key, both }
}

/** A foreground process whose output is kept; resolves once `ready` matches a line of it. */
function startProcess(command: string, args: string[], ready?: RegExp) {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  const started = new Promise<void>((resolve, reject) => {
    const look = (chunk: Buffer) => {
      output += chunk.toString()
      if (!ready || ready.test(output)) resolve()
    }
    child.stdout?.on('data', look)
    child.stderr?.on('data', look)
    child.once('exit', (code) => reject(new Error(`${command} exited (${code}):\n${output}`)))
    if (!ready) setImmediate(resolve)
  })
  return {
    child,
    output: () => output,
    started,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return
      const exited = new Promise((resolve) => child.once('exit', resolve))
      child.kill('SIGTERM')
      await exited
    },
  }
}

/** The answer of HAProxy's stats socket to `command`. */
function askHaproxy(socketPath: string, command: string) {
  return new Promise<string>((resolve, reject) => {
    let answer = ''
    const socket = net.connect(socketPath, () => socket.end(`${command}\n`))
    socket.setEncoding('utf8')
    socket.on('data', (chunk: string) => {
      answer += chunk
    })
    socket.on('end', () => resolve(answer))
    socket.on('error', reject)
  })
}

/** HAProxy's view of its servers (`show servers state`): operational state by server name (2 running, 0 stopped). */
async function serverStates(socketPath: string): Promise<Record<string, number>> {
  // Columns: be_id be_name srv_id srv_name srv_addr srv_op_state …
  const rows = (await askHaproxy(socketPath, 'show servers state'))
    .split('\n')
    .filter((line) => /^\d+ solpledge /.test(line))
  return Object.fromEntries(rows.map((line) => line.split(' ')).map((f) => [f[3] as string, Number(f[5])]))
}

/** How many requests HAProxy has sent each server (`show stat`, column stot). */
async function servedBy(socketPath: string): Promise<Record<string, number>> {
  const rows = (await askHaproxy(socketPath, 'show stat')).split('\n').map((line) => line.split(','))
  return Object.fromEntries(
    rows.filter((f) => f[0] === 'solpledge' && /^[ab]$/.test(f[1] ?? '')).map((f) => [f[1], Number(f[7])]),
  )
}

/** One request through the proxy over TLS from the loopback address `from`, with the headers given. */
function request(
  url: string,
  options: { method: string; path: string; from: string; headers?: Record<string, string>; body?: unknown },
): Promise<{ status: number; body: string; json: () => { code: number; key: string; data: unknown } }> {
  const payload = options.body === undefined ? undefined : JSON.stringify(options.body)
  return new Promise((resolve, reject) => {
    const req = https.request(
      `${url}${options.path}`,
      {
        method: options.method,
        localAddress: options.from,
        rejectUnauthorized: false,
        agent: false,
        headers: {
          'accept-language': 'en',
          ...(payload ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {}),
          ...options.headers,
        },
      },
      (res) => {
        let body = ''
        res.setEncoding('utf8')
        res.on('data', (chunk: string) => {
          body += chunk
        })
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body, json: () => JSON.parse(body) }))
        res.on('error', reject)
      },
    )
    req.on('error', reject)
    req.end(payload)
  })
}

describe('HAProxy (deploy/haproxy.cfg) in front of two instances, one not ready', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'solpledge-haproxy-'))
  const stats = path.join(dir, 'admin.sock')
  let haproxy: ReturnType<typeof startProcess> | undefined
  let rpcOfB: Awaited<ReturnType<typeof cuttableRpc>>
  let cluster: Cluster
  let url: string

  beforeAll(async () => {
    const binary = tool('/usr/sbin/haproxy', 'haproxy')
    const [httpsPort, httpPort] = [await freePort(), await freePort()]
    url = `https://127.0.0.1:${httpsPort}`
    let forwarder: Awaited<ReturnType<typeof cuttableRpc>> | undefined
    cluster = await startCluster(2, {
      publicUrl: url,
      // The instances believe X-Forwarded-For from HAProxy only; b reaches the RPC through a forwarder the test cuts.
      env: async (index, localnet): Promise<Record<string, string>> => {
        // The default login limit (the cluster's load raises it).
        const edge = { TRUST_PROXY: '127.0.0.1', LOGIN_RATE_LIMIT: '60' }
        if (index === 0) return edge
        forwarder = await cuttableRpc(localnet.rpcUrl)
        return { ...edge, SOLANA_RPC_URL: forwarder.url, SOLANA_WS_URL: localnet.wsUrl }
      },
    })
    rpcOfB = forwarder as NonNullable<typeof forwarder>
    const [a, b] = cluster.instances as [Instance, Instance]
    const certificate = selfSignedCertificate(dir)
    const config = adapt(fs.readFileSync(path.join(DEPLOY, 'haproxy.cfg'), 'utf8'), [
      ['log /dev/log local0', 'log stderr format raw local0 notice'],
      ['stats socket /run/haproxy/admin.sock', `stats socket ${stats}`],
      [
        'bind :443 ssl crt /etc/haproxy/certs/app.example.com.pem',
        `bind 127.0.0.1:${httpsPort} ssl crt ${certificate.both}`,
      ],
      ['bind :80', `bind 127.0.0.1:${httpPort}`],
      ['server a 127.0.0.1:3000', `server a 127.0.0.1:${a.port}`],
      ['server b 127.0.0.1:3001', `server b 127.0.0.1:${b.port}`],
    ])
    fs.writeFileSync(path.join(dir, 'haproxy.cfg'), config)
    haproxy = startProcess(binary, ['-db', '-f', path.join(dir, 'haproxy.cfg')])
    await haproxy.started
    await until('HAProxy answers on its stats socket', async () => {
      if (haproxy?.child.exitCode !== null) throw new Error(`haproxy exited:\n${haproxy?.output()}`)
      return fs.existsSync(stats)
    })
  }, 180_000)

  afterAll(async () => {
    await haproxy?.stop()
    await cluster?.close()
    await rpcOfB?.close()
    fs.rmSync(dir, { recursive: true, force: true })
  })

  /** Waits until HAProxy has a and b in the state given (true: in rotation). */
  const rotation = (a: boolean, b: boolean) =>
    until(
      `HAProxy with a ${a ? 'up' : 'down'} and b ${b ? 'up' : 'down'}`,
      async () => {
        const state = await serverStates(stats)
        return (state.a === 2) === a && (state.b === 2) === b
      },
      30_000,
    )

  it('keeps a not-ready instance out: no answer ≥ 500, limits and the audit log by the real client address', async () => {
    const [a, b] = cluster.instances as [Instance, Instance]
    const statuses: number[] = []
    const through = async (options: Parameters<typeof request>[1]) => {
      const res = await request(url, options)
      statuses.push(res.status)
      return res
    }
    /** 130 sign-in nonces from `from`, each forging another X-Forwarded-For: the answers' statuses. */
    const nonceFlood = async (from: string) => {
      const address = new TestWallet().address
      const answers: number[] = []
      for (let i = 0; i < 130; i++) {
        const forged = `203.0.113.${(Math.random() * 250) | 0}`
        const res = await through({
          method: 'POST',
          path: API_BASE + api.nonce.path,
          from,
          headers: { 'x-forwarded-for': forged },
          body: { address },
        })
        answers.push(res.status)
      }
      return answers
    }
    const count = (list: number[], status: number) => list.filter((s) => s === status).length

    // Both in rotation: the login limit (60 a minute) holds for the client's real address across both instances.
    await rotation(true, true)
    const before = await servedBy(stats)
    const shared = await nonceFlood('127.0.0.6')
    const after = await servedBy(stats)
    expect([count(shared, 200), count(shared, 429)]).toEqual([60, 70])
    expect(after.a).toBeGreaterThan((before.a ?? 0) + 30)
    expect(after.b).toBeGreaterThan((before.b ?? 0) + 30)

    // The probe's scenario: b's RPC becomes unreachable while it runs. b still answers, its readiness check says 503,
    // and HAProxy's active check takes it out of the rotation.
    rpcOfB.cut()
    // Readiness is read at most once a second (single flight): the answer read before the cut may be given once more.
    await expect
      .poll(async () => (await fetch(`http://127.0.0.1:${b.port}${API_BASE}${HEALTH_PATHS.ready}`)).status)
      .toBe(503)
    await rotation(true, false)

    for (let i = 0; i < 20; i++) {
      const res = await through({ method: 'GET', path: API_BASE + HEALTH_PATHS.ready, from: '127.0.0.7' })
      expect(res.status).toBe(200)
    }
    // b out of rotation: the same from another client, all answered by a.
    const alone = await nonceFlood('127.0.0.7')
    expect([count(alone, 200), count(alone, 429)]).toEqual([60, 70])

    // An admin signs in from 127.0.0.9 claiming to be 203.0.113.66: the audit log says 127.0.0.9.
    const admin = new TestWallet()
    await cluster.db
      .insertInto('admins')
      .values({ address: admin.address, role: 'admin', source: 'console', added_by: 'test' })
      .execute()
    const forgedAdmin = { from: '127.0.0.9', headers: { 'x-forwarded-for': '203.0.113.66' }, method: 'POST' }
    const adminNonce = await through({
      ...forgedAdmin,
      path: API_BASE + api.adminNonce.path,
      body: { address: admin.address },
    })
    const message = (adminNonce.json().data as { message: string }).message
    const adminLogin = await through({
      ...forgedAdmin,
      path: API_BASE + api.adminLogin.path,
      body: { address: admin.address, sign: admin.sign(message), message },
    })
    expect(adminLogin.json().code).toBe(Code.OK)
    const audit = await cluster.db
      .selectFrom('admin_audit')
      .select('ip')
      .where('action', '=', 'admin.login')
      .where('actor', '=', admin.address)
      .executeTakeFirstOrThrow()
    expect(audit.ip).toBe('127.0.0.9')

    // Top-ups, which read the chain: every one credited, none answered by b.
    const user = new TestWallet()
    const keypair = Keypair.fromSeed(user.secret)
    await cluster.localnet.faucet(user.address, { sol: 2_000_000_000n, tokens: { USDT: 100_000_000n } })
    const userCall = (route: { path: string }, body: unknown, auth?: { token: string }) =>
      through({
        method: 'POST',
        path: API_BASE + route.path,
        from: '127.0.0.8',
        headers: {
          'x-forwarded-for': '203.0.113.9',
          ...(auth ? { 'user-token': auth.token, 'user-address': user.address } : {}),
        },
        body,
      })
    const nonce = await userCall(api.nonce, { address: user.address })
    const signIn = (nonce.json().data as { message: string }).message
    const session = await userCall(api.registerThird, {
      type: LOGIN_TYPE,
      address: user.address,
      sign: user.sign(signIn),
      invite_code: cluster.rootAddress,
      message: signIn,
    })
    const auth = session.json().data as { token: string }
    // The live channel through HAProxy: upgraded over TLS, signed in, and told of each top-up as it is credited.
    const live = await LiveTestClient.connect(
      `${url.replace(/^https/, 'wss')}${API_BASE}${LIVE_PATH}`,
      { 'x-forwarded-for': '203.0.113.9' },
      { rejectUnauthorized: false, localAddress: '127.0.0.8' },
    )
    expect(await live.auth({ token: auth.token, address: user.address })).toEqual({ type: 'authed', as: 'user' })
    await live.subscribe('user')
    for (let i = 0; i < 4; i++) {
      const created = await userCall(api.intentCreate, { purpose: 'recharge', coin: 'USDT', amount: '1000000' }, auth)
      const intent = created.json().data as PaymentIntent
      const signature = await pay(cluster.connection, keypair, intent)
      const submitted = await userCall(api.intentSubmit, { id: intent.id, signature }, auth)
      expect(submitted.json()).toMatchObject({ code: Code.OK, data: { status: 'fulfilled' } })
    }

    const credited = () =>
      live.events('user').filter((e) => e.data.kind === 'intent' && e.data.status === 'fulfilled').length
    await live.next(() => credited() >= 4)
    expect(credited()).toBe(4)
    live.close()

    expect(statuses.filter((status) => status >= 500)).toEqual([])
    expect(cluster.instances.flatMap((i) => i.faults())).toEqual([])
    // b answered none of it: its log has no request from the clients, only HAProxy's checks.
    expect(b.output).not.toContain(api.nonce.path)
    expect(a.child?.exitCode).toBeNull()

    // b's RPC answers again: HAProxy takes it back.
    rpcOfB.restore()
    await rotation(true, true)
    for (let i = 0; i < 4; i++)
      expect(
        (await request(url, { method: 'GET', path: API_BASE + HEALTH_PATHS.ready, from: '127.0.0.7' })).status,
      ).toBe(200)
  }, 240_000)
})

describe('nginx (deploy/nginx.conf)', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'solpledge-nginx-'))
  let nginx: ReturnType<typeof startProcess> | undefined
  let echo: http.Server | undefined
  afterAll(async () => {
    await nginx?.stop()
    await new Promise((resolve) => (echo ? echo.close(resolve) : resolve(undefined)))
    fs.rmSync(dir, { recursive: true, force: true })
  })

  it('is valid (nginx -t) and sends the client address as X-Forwarded-For, whatever the client sent', async () => {
    const binary = tool('/usr/sbin/nginx', 'nginx')
    // The instances: one echo server answering the headers it was sent.
    echo = http.createServer((req, res) => res.end(JSON.stringify(req.headers)))
    // …and a WebSocket server that greets with the headers of the upgrade it accepted.
    const sockets = new WebSocketServer({ noServer: true })
    echo.on('upgrade', (req, socket, head) => {
      // An upgrade without a WebSocket key (the headers check below): answered as the echo answers.
      if (!req.headers['sec-websocket-key']) {
        const body = JSON.stringify(req.headers)
        socket.end(`HTTP/1.1 200 OK\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`)
        return
      }
      sockets.handleUpgrade(req, socket, head, (ws) => ws.send(JSON.stringify(req.headers)))
    })
    await new Promise<void>((resolve) => echo?.listen(0, '127.0.0.1', resolve))
    const upstream = (echo.address() as net.AddressInfo).port
    const [httpsPort, httpPort] = [await freePort(), await freePort()]
    const certificate = selfSignedCertificate(dir)
    const site = adapt(fs.readFileSync(path.join(DEPLOY, 'nginx.conf'), 'utf8'), [
      ['server 127.0.0.1:3000', `server 127.0.0.1:${upstream}`],
      ['server 127.0.0.1:3001', `server 127.0.0.1:${upstream}`],
      ['    listen 80;\n', `    listen 127.0.0.1:${httpPort};\n`],
      ['    listen [::]:80;\n', ''],
      ['listen 443 ssl http2;', `listen 127.0.0.1:${httpsPort} ssl http2;`],
      ['    listen [::]:443 ssl http2;\n', ''],
      ['/etc/letsencrypt/live/app.example.com/fullchain.pem', certificate.cert],
      ['/etc/letsencrypt/live/app.example.com/privkey.pem', certificate.key],
    ])
    fs.writeFileSync(path.join(dir, 'solpledge.conf'), site)
    // The main configuration Debian's nginx.conf would be: the site in its http block.
    fs.writeFileSync(
      path.join(dir, 'nginx.conf'),
      `pid ${dir}/nginx.pid;\nerror_log stderr;\nevents {}\nhttp {\n  access_log off;\n  include ${dir}/solpledge.conf;\n}\n`,
    )
    const args = ['-e', 'stderr', '-p', dir, '-c', path.join(dir, 'nginx.conf')]
    execFileSync(binary, ['-t', ...args], { stdio: 'pipe' })
    nginx = startProcess(binary, [...args, '-g', 'daemon off;'])
    await nginx.started
    const url = `https://127.0.0.1:${httpsPort}`
    await until('nginx answers', () =>
      request(url, { method: 'GET', path: '/', from: '127.0.0.1' }).then(
        () => true,
        () => false,
      ),
    )
    const seen = await request(url, {
      method: 'GET',
      path: `${API_BASE}/live`,
      from: '127.0.0.5',
      headers: { 'x-forwarded-for': '203.0.113.1', upgrade: 'websocket', connection: 'upgrade' },
    })
    expect(seen.json()).toMatchObject({
      'x-forwarded-for': '127.0.0.5',
      'x-forwarded-proto': 'https',
      upgrade: 'websocket',
      connection: 'upgrade',
    })
    const plain = (await request(url, { method: 'GET', path: '/', from: '127.0.0.6' })).json() as unknown as Record<
      string,
      string
    >
    expect(plain['x-forwarded-for']).toBe('127.0.0.6')
    expect(plain.upgrade).toBeUndefined()
    // A real WebSocket through it (the live channel's path): upgraded, and its first frame arrives.
    const ws = new WebSocket(`wss://127.0.0.1:${httpsPort}${API_BASE}${LIVE_PATH}`, {
      rejectUnauthorized: false,
      localAddress: '127.0.0.7',
    })
    const greeting = await new Promise<Record<string, string>>((resolve, reject) => {
      ws.once('message', (data) => resolve(JSON.parse(data.toString())))
      ws.once('error', reject)
    })
    ws.terminate()
    expect(greeting).toMatchObject({ 'x-forwarded-for': '127.0.0.7', upgrade: 'websocket', connection: 'upgrade' })
  }, 120_000)
})

describe('Caddy (deploy/Caddyfile)', () => {
  it('is valid (caddy validate)', async () => {
    const binary = tool('/usr/bin/caddy', 'caddy')
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'solpledge-caddy-'))
    try {
      // Its active checks start during validation: towards free ports, not another test's instances.
      const [a, b] = [await freePort(), await freePort()]
      const file = path.join(dir, 'Caddyfile')
      fs.writeFileSync(
        file,
        adapt(fs.readFileSync(path.join(DEPLOY, 'Caddyfile'), 'utf8'), [
          ['reverse_proxy 127.0.0.1:3000 127.0.0.1:3001', `reverse_proxy 127.0.0.1:${a} 127.0.0.1:${b}`],
        ]),
      )
      const output = execFileSync(binary, ['validate', '--config', file, '--adapter', 'caddyfile'], {
        env: { ...process.env, XDG_DATA_HOME: dir, XDG_CONFIG_HOME: dir, HOME: dir },
        stdio: 'pipe',
      }).toString()
      expect(output).toContain('Valid configuration')
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })
})
