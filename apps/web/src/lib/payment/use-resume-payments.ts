import { useQueryClient } from '@tanstack/react-query'
import { useEffect } from 'react'
import { ApiError } from '../api-client.ts'
import { showNotice } from '../notice.ts'
import { invalidateAfter } from '../query-keys.ts'
import { showReceipt } from '../receipt.ts'
import { useSignedInAddress } from '../session.ts'
import { paymentOutcome, paymentReceipt } from './payment-outcome.ts'
import { clearPendingPayment, type ReportablePayment, takeReportablePayments } from './pending-payment.ts'
import { reporting } from './reporting.ts'
import { isNotConfirmedYet, submitIntentUntilChecked } from './submit-intent.ts'

async function resume(payment: ReportablePayment) {
  try {
    const intent = await submitIntentUntilChecked(payment.id, payment.signature, 3)
    clearPendingPayment(payment.id)
    const outcome = paymentOutcome(intent)
    showNotice(outcome.notice, outcome.ok ? 'success' : 'error')
    showReceipt(paymentReceipt(intent))
    return true
  } catch (error) {
    console.error(error)
    // Refused for good, e.g. the node sold out before the payment arrived (the money is in the asset balance): say
    // why, once. Not checked yet or not reachable: the server's watcher takes over.
    if (error instanceof ApiError && !isNotConfirmedYet(error)) {
      clearPendingPayment(payment.id)
      showNotice({ text: error.message }, 'error')
      return true
    }
    return false
  }
}

/**
 * Payments that were sent but not reported (the page was reloaded or the tab closed meanwhile) are reported once the
 * wallet is signed in again: fulfilled → the purpose's success message ('Recharge successfully', 'Staking
 * Successful', 'Node purchased.') and its receipt; refused for good → the server's reason; then fresh data. Anything else is only
 * logged: the server's watcher fulfils payments it finds by reference anyway. Mounted once, by the app layout.
 */
export function useResumePayments() {
  const address = useSignedInAddress()
  const queryClient = useQueryClient()
  useEffect(() => {
    if (!address) return
    const payments = takeReportablePayments(address).filter((payment) => !reporting.has(payment.id))
    for (const payment of payments) {
      reporting.add(payment.id)
      resume(payment)
        .then((settled) => (settled ? invalidateAfter(queryClient, 'payment') : undefined))
        .finally(() => reporting.delete(payment.id))
    }
  }, [address, queryClient])
}
