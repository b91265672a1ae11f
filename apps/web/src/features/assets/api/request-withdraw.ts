import { api, type Withdrawal } from '@solpledge/contract/client'
import i18next from 'i18next'
import { send } from '@/lib/api-client.ts'
import { type Receipt, receiptMoney, showReceipt } from '@/lib/receipt.ts'
import { reportActionError } from '@/lib/report-action-error.ts'
import { toast } from '@/lib/toast.ts'
import { useMoneyAction } from '@/lib/use-money-action.ts'
import { withdrawalTone } from '../utils/movements.ts'

/**
 * Asks to withdraw `amount` base units (fee included) to the user's own wallet; resolves the whole envelope, whose msg
 * says what happened ('Withdrawal requested').
 */
export const requestWithdraw = (coin: string, amount: bigint, idempotencyKey?: string) =>
  send(api.withdraw, { coin, amount: amount.toString() }, { idempotencyKey })

/** The receipt of a withdrawal: what leaves the balance, the fee, what arrives, and its state (e.g. under review). */
export function withdrawalReceipt(withdrawal: Withdrawal): Receipt {
  const asset = { symbol: withdrawal.coin, decimals: withdrawal.decimals }
  const t = i18next.t
  return {
    title: t('receipt.title.withdraw', { coin: withdrawal.coin }),
    rows: [
      { id: 'amount', label: t('review.amount'), value: receiptMoney(withdrawal.amount, asset) },
      { id: 'fee', label: t('assets.withdrawDialog.fee'), value: receiptMoney(withdrawal.fee, asset) },
      { id: 'receive', label: t('assets.withdrawDialog.receive'), value: receiptMoney(withdrawal.receive, asset) },
    ],
    state: {
      value: withdrawal.status,
      text: t(`assets.withdrawals.status.${withdrawal.status}`),
      tone: withdrawalTone[withdrawal.status],
    },
    signature: withdrawal.signature,
  }
}

/**
 * Requests a withdrawal: the server's msg as a toast either way ('under review' when it waits for an operator), its
 * receipt, then fresh balances and withdrawals.
 */
export function useWithdraw(onDone: () => void) {
  return useMoneyAction({
    mutationFn: ({ coin, amount }: { coin: string; amount: bigint }, key) => requestWithdraw(coin, amount, key),
    onSuccess: ({ msg, data }) => {
      toast.success(msg || i18next.t('msg:assets.withdrawRequested'))
      onDone()
      showReceipt(withdrawalReceipt(data))
    },
    onError: (error) => reportActionError(error),
    invalidates: 'withdraw',
  })
}
