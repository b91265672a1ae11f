import { api } from '@solpledge/contract/client'
import i18next from 'i18next'
import { call } from '@/lib/api-client.ts'
import { reportActionError } from '@/lib/report-action-error.ts'
import { toast } from '@/lib/toast.ts'
import { useMoneyAction } from '@/lib/use-money-action.ts'

/** Stakes `amount` base units of {product} from the asset balance for `days` (a configured period). */
export const stakeFromBalance = ({ amount, days }: { amount: bigint; days: number }, idempotencyKey?: string) =>
  call(api.pledgeStake, { amount: amount.toString(), days }, { idempotencyKey })

/** Stakes from the balance: 'Staking Successful' or the server's refusal, then fresh stakes, figures and balances. */
export function useStakeFromBalance(onDone: () => void) {
  return useMoneyAction({
    mutationFn: stakeFromBalance,
    onSuccess: () => {
      toast.success(i18next.t('msg:pledge.success'))
      onDone()
    },
    onError: (error) => reportActionError(error),
    invalidates: 'stake',
  })
}
