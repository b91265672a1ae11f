import { api } from '@solpledge/contract/client'
import i18next from 'i18next'
import { call } from '@/lib/api-client.ts'
import { reportActionError } from '@/lib/report-action-error.ts'
import { toast } from '@/lib/toast.ts'
import { useMoneyAction } from '@/lib/use-money-action.ts'

/** Deposits `amount` base units from the asset balance into the product of `days`. */
export const makeDeposit = ({ amount, days }: { amount: bigint; days: number }, idempotencyKey?: string) =>
  call(api.financeDeposit, { amount: amount.toString(), days }, { idempotencyKey })

/** Deposits: 'Deposit successful' or the server's refusal, then fresh deposits and balances. */
export function useMakeDeposit(onDone: () => void) {
  return useMoneyAction({
    mutationFn: makeDeposit,
    onSuccess: () => {
      toast.success(i18next.t('msg:finance.depositSuccess'))
      onDone()
    },
    onError: (error) => reportActionError(error),
    invalidates: 'financeDeposit',
  })
}
