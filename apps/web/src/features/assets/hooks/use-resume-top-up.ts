import { useQueryClient } from '@tanstack/react-query'
import i18next from 'i18next'
import { useEffect } from 'react'
import { ApiError } from '../../../lib/api-client.ts'
import { useSignedInAddress } from '../../../lib/session.ts'
import { toast } from '../../../lib/toast.ts'
import { assetsKeys } from '../api/keys.ts'
import { isNotConfirmedYet, submitIntentUntilChecked } from '../api/submit-intent.ts'
import { clearPendingTopUp, takeReportableTopUp } from '../utils/pending-top-up.ts'

/** Intent ids being reported right now (the screen may mount twice, e.g. in StrictMode). */
const reporting = new Set<string>()

/**
 * A top-up that was paid but not reported (the page was reloaded meanwhile) is reported when the assets screen opens:
 * credited → 'Recharge successfully' and fresh balances. Anything else is only logged: the server's watcher credits
 * payments it finds by reference anyway.
 */
export function useResumeTopUp() {
  const address = useSignedInAddress()
  const queryClient = useQueryClient()
  useEffect(() => {
    if (!address) return
    const pending = takeReportableTopUp(address)
    if (!pending || reporting.has(pending.id)) return
    reporting.add(pending.id)
    submitIntentUntilChecked(pending.id, pending.signature, 3)
      .then(() => {
        clearPendingTopUp(pending.id)
        toast.success(i18next.t('msg:assets.rechargeSuccess'))
        return queryClient.invalidateQueries({ queryKey: assetsKeys.all })
      })
      .catch((error: unknown) => {
        console.error(error)
        if (error instanceof ApiError && !isNotConfirmedYet(error)) clearPendingTopUp(pending.id)
      })
      .finally(() => reporting.delete(pending.id))
  }, [address, queryClient])
}
