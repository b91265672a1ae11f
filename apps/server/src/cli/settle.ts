// npm run settle -- --day YYYY-MM-DD [--url http://127.0.0.1:3000]
// Asks the running server to settle every day not yet settled through --day (default: today, UTC), in order, and
// prints what each day paid. The operator token comes from OPERATOR_TOKEN or DATA_DIR/keys/operator-token (DATA_DIR
// defaults to ./data, where `npm start` keeps it). Exit status 1 when the server refuses.
import fs from 'node:fs'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { API_BASE, api, type Envelope, formatAmount, type SettlementDay } from '@solpledge/contract'
import { isDay, utcDay } from '../lib/day.ts'

const { values } = parseArgs({
  options: {
    day: { type: 'string', default: utcDay() },
    url: { type: 'string', default: process.env.SETTLE_URL ?? `http://127.0.0.1:${process.env.PORT || 3000}` },
    help: { type: 'boolean', short: 'h', default: false },
  },
})
if (values.help) {
  console.log('usage: npm run settle -- --day YYYY-MM-DD [--url http://127.0.0.1:3000]')
  process.exit(0)
}
if (!isDay(values.day)) {
  console.error(`--day must be a calendar day YYYY-MM-DD, got "${values.day}"`)
  process.exit(2)
}

function operatorToken(): string {
  if (process.env.OPERATOR_TOKEN) return process.env.OPERATOR_TOKEN
  const file = path.join(path.resolve(process.env.DATA_DIR || 'data'), 'keys', 'operator-token')
  try {
    return fs.readFileSync(file, 'utf8').trim()
  } catch {
    console.error(`no operator token: set OPERATOR_TOKEN or start the server once so that ${file} exists`)
    process.exit(2)
  }
}

const response = await fetch(values.url + API_BASE + api.settlementRun.path, {
  method: 'POST',
  headers: { 'content-type': 'application/json', 'accept-language': 'en', 'operator-token': operatorToken() },
  body: JSON.stringify({ day: values.day }),
}).catch((error: Error) => {
  console.error(`cannot reach the server at ${values.url}: ${error.message}`)
  process.exit(2)
})
const envelope = (await response.json()) as Envelope
if (envelope.code !== 1) {
  console.error(`refused (code ${envelope.code}): ${envelope.msg}`)
  process.exit(1)
}
const { list } = envelope.data as { list: SettlementDay[] }
if (list.length === 0) console.log(`nothing settled through ${values.day}`)
for (const day of list) {
  const expired = `expired: ${day.expired.stakes} stakes, ${day.expired.finance} finance deposits`
  console.log(`${day.day}  ${day.status}  ${expired}  finished ${day.finished_at ?? '-'}`)
  for (const t of day.totals)
    console.log(
      `  ${t.type.padEnd(16)} ${String(t.count).padStart(8)}  ${formatAmount(t.amount, t.decimals)} ${t.coin}`,
    )
}
