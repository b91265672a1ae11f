import { api } from '@solpledge/contract/client'
import { useQueryClient } from '@tanstack/react-query'
import i18next from 'i18next'
import { call } from '../../../lib/api-client.ts'
import { reportActionError } from '../../../lib/report-action-error.ts'
import { toast } from '../../../lib/toast.ts'
import { useMoneyAction } from '../../../lib/use-money-action.ts'
import { assetsKeys } from './keys.ts'

/** Local chain only: the server sends SOL and test tokens to the signed-in wallet. */
export const requestFaucet = (idempotencyKey?: string) => call(api.faucet, {}, { idempotencyKey })

export function useFaucet() {
  const queryClient = useQueryClient()
  return useMoneyAction({
    mutationFn: (_: undefined, key) => requestFaucet(key),
    onSuccess: () => toast.success(i18next.t('msg:assets.faucetSuccess')),
    onError: (error) => reportActionError(error),
    onSettled: () => queryClient.invalidateQueries({ queryKey: assetsKeys.chain }),
  })
}
