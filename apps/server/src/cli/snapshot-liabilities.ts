// npm run snapshot-liabilities [-- --url http://127.0.0.1:3000]
// Asks the running server to take a proof-of-liabilities snapshot now and publish its root on chain (one also follows
// every daily settlement), and prints the root. The operator token as for npm run settle.
import { parseArgs } from 'node:util'
import { api, formatAmount, type LiabilityRoot } from '@solpledge/contract'
import { defaultUrl, operatorCall } from './operator.ts'

const { values } = parseArgs({
  options: {
    url: { type: 'string', default: defaultUrl() },
    help: { type: 'boolean', short: 'h', default: false },
  },
})
if (values.help) {
  console.log('usage: npm run snapshot-liabilities [-- --url http://127.0.0.1:3000]')
  process.exit(0)
}

const root = await operatorCall<LiabilityRoot>(values.url, api.liabilitiesSnapshot.path, {})
console.log(`snapshot #${root.snapshot_id}  taken ${root.taken_at}  reserves at slot ${root.slot}`)
console.log(`  root ${root.root.hash}`)
for (const [i, asset] of root.assets.entries()) {
  const reserve = root.reserves[i]
  console.log(
    `  ${asset.coin.padEnd(6)} owed ${formatAmount(root.root.sums[i] ?? '0', asset.decimals)}` +
      `  held ${formatAmount(reserve?.holdings ?? '0', asset.decimals)}`,
  )
}
console.log(
  root.signature ? `  published: ${root.signature}` : '  not confirmed yet: the server publishes it on its next pass',
)
