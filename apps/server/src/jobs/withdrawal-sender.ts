import type { JobContext } from '../lib/jobs.ts'
import { processWithdrawals, type SenderStep, senderInstance } from '../modules/withdrawals/index.ts'

/** Pays the pending withdrawals from the hot wallet and settles them once confirmed (docs/money.md). */
export function withdrawalSender({ db, config, platform, log }: JobContext) {
  // CRASH_AT is for the crash tests only: die abruptly right after that sender step, as a power cut would.
  const onStep = (step: SenderStep) => {
    if (step === config.crashAt) process.kill(process.pid, 'SIGKILL')
  }
  // The name this instance's sender leases its share of the open withdrawals under (docs/money.md "Withdrawals").
  const instance = senderInstance(config.port)
  let hotWalletWarnedAt = 0
  return async function pass() {
    const { errors, problem, hotWallet, ...sent } = await processWithdrawals(db, platform, { onStep, instance })
    for (const { id, error } of errors) log.error({ err: error, withdrawal: id }, 'withdrawal sender failed')
    // The hot wallet cannot pay: an error line when the cause appears or changes, a warning once a minute after.
    if (problem && (hotWallet === 'new' || Date.now() - hotWalletWarnedAt >= 60_000)) {
      hotWalletWarnedAt = Date.now()
      const line = { hotWallet: platform.hotWallet.address, cause: problem.kind, asset: problem.asset, ...sent }
      log[hotWallet === 'new' ? 'error' : 'warn'](line, `hot wallet cannot pay: ${problem.detail}`)
    }
    if (hotWallet === 'recovered') log.info({ hotWallet: platform.hotWallet.address }, 'hot wallet pays again')
    // Resends of a payout waiting to confirm happen every pass: only outcomes are worth an info line.
    if (sent.confirmed || sent.failed || sent.renewed) log.info(sent, 'withdrawal sender pass')
    else if (sent.sent || sent.refused) log.debug(sent, 'withdrawal sender pass')
  }
}
