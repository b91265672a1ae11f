import { api } from '@solpledge/contract/client'
import i18next from 'i18next'
import { call } from '@/lib/api-client.ts'
import { reportActionError } from '@/lib/report-action-error.ts'
import { toast } from '@/lib/toast.ts'
import { useMoneyAction } from '@/lib/use-money-action.ts'

/** Local chain only: the server sends SOL and test tokens to the signed-in wallet. */
export const requestFaucet = (idempotencyKey?: string) => call(api.faucet, {}, { idempotencyKey })

export function useFaucet() {
  return useMoneyAction({
    mutationFn: (_: undefined, key) => requestFaucet(key),
    onSuccess: () => toast.success(i18next.t('msg:assets.faucetSuccess')),
    onError: (error) => reportActionError(error),
    invalidates: 'faucet',
  })
}
