import { api, type FinanceDeposit } from '@solpledge/contract/client'
import i18next from 'i18next'
import { call } from '@/lib/api-client.ts'
import { type Receipt, receiptMoney, showReceipt } from '@/lib/receipt.ts'
import { reportActionError } from '@/lib/report-action-error.ts'
import { toast } from '@/lib/toast.ts'
import { useMoneyAction } from '@/lib/use-money-action.ts'
import { depositStatus } from '../components/deposit-status.ts'

/** Deposits `amount` base units from the asset balance into the product of `days`. */
export const makeDeposit = ({ amount, days }: { amount: bigint; days: number }, idempotencyKey?: string) =>
  call(api.financeDeposit, { amount: amount.toString(), days }, { idempotencyKey })

/**
 * The receipt of a deposit made or redeemed: its amount, its term and what it produces (made), or what went back to
 * the balance (redeemed); its state.
 */
export function depositReceipt(deposit: FinanceDeposit, action: 'deposit' | 'redeem'): Receipt {
  const t = i18next.t
  const asset = { symbol: deposit.coin, decimals: deposit.decimals }
  const status = depositStatus(t, deposit)
  const rows =
    action === 'deposit'
      ? [
          { id: 'amount', label: t('review.amount'), value: receiptMoney(deposit.amount, asset) },
          { id: 'period', label: t('review.deposit.term'), value: t('finance.products.days', { count: deposit.days }) },
          {
            id: 'output',
            label: t('review.deposit.interest'),
            value: receiptMoney(deposit.total_output, asset, 'output'),
          },
        ]
      : [{ id: 'amount', label: t('review.redeem.back'), value: receiptMoney(deposit.amount, asset) }]
  return {
    title: t(`receipt.title.${action}`, { coin: deposit.coin }),
    rows,
    state: { value: status.value, text: status.label, tone: status.tone },
  }
}

/** Deposits: 'Deposit successful' or the server's refusal, then fresh deposits and balances. */
export function useMakeDeposit(onDone: () => void) {
  return useMoneyAction({
    mutationFn: makeDeposit,
    onSuccess: (deposit) => {
      toast.success(i18next.t('msg:finance.depositSuccess'))
      onDone()
      showReceipt(depositReceipt(deposit, 'deposit'))
    },
    onError: (error) => reportActionError(error),
    invalidates: 'financeDeposit',
  })
}
