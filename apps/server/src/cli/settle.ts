// npm run settle -- --day YYYY-MM-DD [--url http://127.0.0.1:3000]
// Asks the running server to settle every day not yet settled through --day (default: today, UTC), in order, and
// prints what each day paid. The operator token comes from OPERATOR_TOKEN or DATA_DIR/keys/operator-token (DATA_DIR
// defaults to ./data, where `npm start` keeps it). Exit status 1 when the server refuses.
import { parseArgs } from 'node:util'
import { api, formatAmount, type SettlementDay } from '@solpledge/contract'
import { isDay, utcDay } from '../lib/day.ts'
import { defaultUrl, operatorCall } from './operator.ts'

const { values } = parseArgs({
  options: {
    day: { type: 'string', default: utcDay() },
    url: { type: 'string', default: defaultUrl() },
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

const { list } = await operatorCall<{ list: SettlementDay[] }>(values.url, api.settlementRun.path, { day: values.day })
if (list.length === 0) console.log(`nothing settled through ${values.day}`)
for (const day of list) {
  const expired = `expired: ${day.expired.stakes} stakes, ${day.expired.finance} finance deposits`
  console.log(`${day.day}  ${day.status}  ${expired}  finished ${day.finished_at ?? '-'}`)
  for (const t of day.totals)
    console.log(
      `  ${t.type.padEnd(16)} ${String(t.count).padStart(8)}  ${formatAmount(t.amount, t.decimals)} ${t.coin}`,
    )
}
