import { api } from '@solpledge/contract/client'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import i18next from 'i18next'
import { send } from '../../../lib/api-client.ts'
import { reportActionError } from '../../../lib/report-action-error.ts'
import { toast } from '../../../lib/toast.ts'
import { assetsKeys } from './keys.ts'

/**
 * Asks to withdraw `amount` base units (fee included) to the user's own wallet; resolves the whole envelope, whose msg
 * says what happened ('Withdrawal requested').
 */
export const requestWithdraw = (coin: string, amount: bigint) => send(api.withdraw, { coin, amount: amount.toString() })

/** Requests a withdrawal: the server's msg as a toast either way, then fresh balances and withdrawals. */
export function useWithdraw(onDone: () => void) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: ({ coin, amount }: { coin: string; amount: bigint }) => requestWithdraw(coin, amount),
    onSuccess: ({ msg }) => {
      toast.success(msg || i18next.t('msg:assets.withdrawRequested'))
      onDone()
    },
    onError: (error) => reportActionError(error),
    onSettled: () => queryClient.invalidateQueries({ queryKey: assetsKeys.all }),
  })
}
