import { api } from '@solpledge/contract/client'
import i18next from 'i18next'
import { call } from '@/lib/api-client.ts'
import { showReceipt } from '@/lib/receipt.ts'
import { reportActionError } from '@/lib/report-action-error.ts'
import { toast } from '@/lib/toast.ts'
import { useMoneyAction } from '@/lib/use-money-action.ts'
import { depositReceipt } from './make-deposit.ts'

/** Redeems a matured deposit: its principal goes back to the asset balance. */
export const redeemDeposit = (id: string, idempotencyKey?: string) =>
  call(api.financeRedeem, { id }, { idempotencyKey })

/** Redeems: 'Successfully redeemed to asset balance' and its receipt, or the server's refusal, then fresh deposits and balances. */
export function useRedeemDeposit() {
  return useMoneyAction({
    mutationFn: redeemDeposit,
    onSuccess: (deposit) => {
      toast.success(i18next.t('msg:finance.redeemed'))
      showReceipt(depositReceipt(deposit, 'redeem'))
    },
    onError: (error) => reportActionError(error),
    invalidates: 'financeRedeem',
  })
}
