import { api } from '@solpledge/contract/client'
import { useQueryClient } from '@tanstack/react-query'
import i18next from 'i18next'
import { call } from '../../../lib/api-client.ts'
import { reportActionError } from '../../../lib/report-action-error.ts'
import { toast } from '../../../lib/toast.ts'
import { useMoneyAction } from '../../../lib/use-money-action.ts'
import { userWalletKeys } from '../../../lib/user-wallet.ts'
import { pledgeKeys } from './keys.ts'

/** Stakes `amount` base units of {product} from the asset balance for `days` (a configured period). */
export const stakeFromBalance = ({ amount, days }: { amount: bigint; days: number }, idempotencyKey?: string) =>
  call(api.pledgeStake, { amount: amount.toString(), days }, { idempotencyKey })

/** Stakes from the balance: 'Staking Successful' or the server's refusal, then fresh stakes, figures and balances. */
export function useStakeFromBalance(onDone: () => void) {
  const queryClient = useQueryClient()
  return useMoneyAction({
    mutationFn: stakeFromBalance,
    onSuccess: () => {
      toast.success(i18next.t('msg:pledge.success'))
      onDone()
    },
    onError: (error) => reportActionError(error),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: pledgeKeys.all }),
        queryClient.invalidateQueries({ queryKey: userWalletKeys }),
      ]),
  })
}
