// bench/deposit: latency from a deposit transaction's confirmation to the credited platform balance, on the local chain.
// Two paths: the web app's report (intentSubmit right after confirmation) and the watcher (no report at all). The
// baseline in the same run is one bare getTransaction round trip, the least any verification must cost.
// Usage: npm run bench:deposit [-- --deposits 40 --json bench/results/deposit.json]
import fs from 'node:fs'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { api } from '@solpledge/contract'
import { watchIntents } from '../../apps/server/src/modules/intents/service.ts'
import { call } from '../../apps/server/test/helpers.ts'
import { available, createChainApp, createIntent, fundedUser, pay } from '../../apps/server/test/money.ts'

const { values } = parseArgs({
  options: { deposits: { type: 'string', default: '40' }, json: { type: 'string' } },
})
const deposits = Number(values.deposits)

const percentile = (samples: number[], p: number) => {
  const sorted = [...samples].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN
}
const summary = (name: string, samples: number[], target: string) => ({
  path: name,
  n: samples.length,
  'p50 ms': Math.round(percentile(samples, 50)),
  'p95 ms': Math.round(percentile(samples, 95)),
  'max ms': Math.round(Math.max(...samples)),
  target,
})

const ctx = await createChainApp()
try {
  const user = await fundedUser(ctx, { USDT: 10n ** 12n })
  const submitted: number[] = []
  const watched: number[] = []
  const bare: number[] = []
  for (let i = 0; i < deposits; i++) {
    // The web app's path: confirmation, then the report, then the credit is visible.
    const intent = await createIntent(ctx, user.auth, 'USDT', 1_000_000n + BigInt(i))
    const signature = await pay(ctx.connection, user.keypair, intent)
    const confirmed = performance.now()
    const res = await call(ctx.app, api.intentSubmit, { id: intent.id, signature }, user.auth)
    if (res.code !== 1) throw new Error(`submit refused: ${res.msg}`)
    submitted.push(performance.now() - confirmed)

    const started = performance.now()
    await ctx.connection.getTransaction(signature, { commitment: 'confirmed', maxSupportedTransactionVersion: 0 })
    bare.push(performance.now() - started)

    // The watcher's path: nobody reports; one watcher pass finds and credits it.
    const unreported = await createIntent(ctx, user.auth, 'USDT', 2_000_000n + BigInt(i))
    const before = await available(ctx, user.auth, 'USDT')
    await pay(ctx.connection, user.keypair, unreported)
    const paid = performance.now()
    await watchIntents(ctx.db, ctx.platform)
    if ((await available(ctx, user.auth, 'USDT')) !== before + BigInt(unreported.amount))
      throw new Error('not credited')
    watched.push(performance.now() - paid)
  }
  const rows = [
    summary('report (intentSubmit)', submitted, 'p95 ≤ 1000'),
    summary('watcher pass (+ interval)', watched, 'p95 ≤ 1000 + interval'),
    summary('baseline: getTransaction', bare, '—'),
  ]
  console.log(`\nbench/deposit — ${deposits} deposits on the local chain, PGlite`)
  console.table(rows)
  if (values.json) {
    fs.mkdirSync(path.dirname(values.json), { recursive: true })
    fs.writeFileSync(values.json, JSON.stringify({ date: new Date().toISOString(), deposits, rows }, null, 2))
  }
} finally {
  await ctx.close()
}
