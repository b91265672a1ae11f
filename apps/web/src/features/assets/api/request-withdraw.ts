import { api } from '@solpledge/contract/client'
import i18next from 'i18next'
import { send } from '@/lib/api-client.ts'
import { reportActionError } from '@/lib/report-action-error.ts'
import { toast } from '@/lib/toast.ts'
import { useMoneyAction } from '@/lib/use-money-action.ts'

/**
 * Asks to withdraw `amount` base units (fee included) to the user's own wallet; resolves the whole envelope, whose msg
 * says what happened ('Withdrawal requested').
 */
export const requestWithdraw = (coin: string, amount: bigint, idempotencyKey?: string) =>
  send(api.withdraw, { coin, amount: amount.toString() }, { idempotencyKey })

/** Requests a withdrawal: the server's msg as a toast either way, then fresh balances and withdrawals. */
export function useWithdraw(onDone: () => void) {
  return useMoneyAction({
    mutationFn: ({ coin, amount }: { coin: string; amount: bigint }, key) => requestWithdraw(coin, amount, key),
    onSuccess: ({ msg }) => {
      toast.success(msg || i18next.t('msg:assets.withdrawRequested'))
      onDone()
    },
    onError: (error) => reportActionError(error),
    invalidates: 'withdraw',
  })
}
