import { api, type MarketInfo } from '@solpledge/contract/client'
import i18next from 'i18next'
import { call } from '@/lib/api-client.ts'
import { showReceipt } from '@/lib/receipt.ts'
import { reportActionError } from '@/lib/report-action-error.ts'
import { toast } from '@/lib/toast.ts'
import { useMoneyAction } from '@/lib/use-money-action.ts'
import { cancelReceipt } from '../utils/receipt.ts'

/** Cancels a pending order: its unfilled rest leaves the book and the locked funds return to the balance. */
export const cancelOrder = (id: string, idempotencyKey?: string) => call(api.tradeCancel, { id }, { idempotencyKey })

/**
 * Cancels: 'Revocation successfully' and the receipt of what returned to the balance, or the server's refusal ('Failed
 * to withdraw order.' unless it said more).
 */
export function useCancelOrder(market: MarketInfo, onDone: () => void) {
  return useMoneyAction({
    mutationFn: cancelOrder,
    onSuccess: (order) => {
      toast.success(i18next.t('msg:trade.cancelSuccess'))
      showReceipt(cancelReceipt(market, order))
    },
    onError: (error) => reportActionError(error, 'trade.cancelFailed'),
    onSettled: () => onDone(),
    invalidates: 'trade',
  })
}
