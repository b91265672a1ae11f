import { api } from '@solpledge/contract/client'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import i18next from 'i18next'
import { call } from '../../../lib/api-client.ts'
import { reportActionError } from '../../../lib/report-action-error.ts'
import { toast } from '../../../lib/toast.ts'
import { assetsKeys } from './keys.ts'

/** Local chain only: the server sends SOL and test tokens to the signed-in wallet. */
export const requestFaucet = () => call(api.faucet, {})

export function useFaucet() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: requestFaucet,
    onSuccess: () => toast.success(i18next.t('msg:assets.faucetSuccess')),
    onError: (error) => reportActionError(error),
    onSettled: () => queryClient.invalidateQueries({ queryKey: assetsKeys.chain }),
  })
}
