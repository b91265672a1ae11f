import { api } from '@solpledge/contract/client'
import i18next from 'i18next'
import { send } from '@/lib/api-client.ts'
import { reportActionError } from '@/lib/report-action-error.ts'
import { toast } from '@/lib/toast.ts'
import { useMoneyAction } from '@/lib/use-money-action.ts'

/** Buys a node of `level`, paid in USDT from the asset balance; resolves the whole envelope ('Node purchased.'). */
export const buyNode = (level: string, idempotencyKey?: string) =>
  send(api.nodeBuy, { level, pay: 'balance' }, { idempotencyKey })

/** Buys a node: the server's msg as a toast either way, then fresh levels, nodes and balances. */
export function useBuyNode(onDone: () => void) {
  return useMoneyAction({
    mutationFn: buyNode,
    onSuccess: ({ msg }) => {
      toast.success(msg || i18next.t('msg:node.purchased'))
      onDone()
    },
    onError: (error) => reportActionError(error),
    invalidates: 'nodeBuy',
  })
}
