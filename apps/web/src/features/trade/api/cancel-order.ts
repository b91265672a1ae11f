import { api } from '@solpledge/contract/client'
import i18next from 'i18next'
import { call } from '@/lib/api-client.ts'
import { reportActionError } from '@/lib/report-action-error.ts'
import { toast } from '@/lib/toast.ts'
import { useMoneyAction } from '@/lib/use-money-action.ts'

/** Cancels a pending order: its unfilled rest leaves the book and the locked funds return to the balance. */
export const cancelOrder = (id: string, idempotencyKey?: string) => call(api.tradeCancel, { id }, { idempotencyKey })

/** Cancels: 'Revocation successfully', or the server's refusal ('Failed to withdraw order.' unless it said more). */
export function useCancelOrder(onDone: () => void) {
  return useMoneyAction({
    mutationFn: cancelOrder,
    onSuccess: () => toast.success(i18next.t('msg:trade.cancelSuccess')),
    onError: (error) => reportActionError(error, 'trade.cancelFailed'),
    onSettled: () => onDone(),
    invalidates: 'trade',
  })
}
