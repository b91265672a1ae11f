import { api, type Stake } from '@solpledge/contract/client'
import i18next from 'i18next'
import { call } from '@/lib/api-client.ts'
import { type Receipt, receiptMoney, showReceipt } from '@/lib/receipt.ts'
import { reportActionError } from '@/lib/report-action-error.ts'
import { toast } from '@/lib/toast.ts'
import { useMoneyAction } from '@/lib/use-money-action.ts'
import { stakeStatus } from '../components/stake-status.ts'

/** Stakes `amount` base units of {product} from the asset balance for `days` (a configured period). */
export const stakeFromBalance = ({ amount, days }: { amount: bigint; days: number }, idempotencyKey?: string) =>
  call(api.pledgeStake, { amount: amount.toString(), days }, { idempotencyKey })

/** The receipt of a stake from the balance: what is locked, for how long, what it produces. */
export function stakeReceipt(stake: Stake): Receipt {
  const t = i18next.t
  const asset = { symbol: stake.coin, decimals: stake.decimals }
  const status = stakeStatus(t, stake.status)
  return {
    title: t('receipt.title.stake', { coin: stake.coin }),
    rows: [
      { id: 'amount', label: t('review.stake.locked'), value: receiptMoney(stake.amount, asset) },
      { id: 'period', label: t('review.period'), value: t('pledge.config.days', { count: stake.days }) },
      { id: 'output', label: t('pledge.form.totalOutput'), value: receiptMoney(stake.total_output, asset, 'output') },
    ],
    state: { value: status.value, text: status.label, tone: status.tone },
  }
}

/** Stakes from the balance: 'Staking Successful' or the server's refusal, then fresh stakes, figures and balances. */
export function useStakeFromBalance(onDone: () => void) {
  return useMoneyAction({
    mutationFn: stakeFromBalance,
    onSuccess: (stake) => {
      toast.success(i18next.t('msg:pledge.success'))
      onDone()
      showReceipt(stakeReceipt(stake))
    },
    onError: (error) => reportActionError(error),
    invalidates: 'stake',
  })
}
