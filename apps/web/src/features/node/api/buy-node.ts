import { api } from '@solpledge/contract/client'
import { useQueryClient } from '@tanstack/react-query'
import i18next from 'i18next'
import { send } from '../../../lib/api-client.ts'
import { reportActionError } from '../../../lib/report-action-error.ts'
import { toast } from '../../../lib/toast.ts'
import { useMoneyAction } from '../../../lib/use-money-action.ts'
import { userWalletKeys } from '../../../lib/user-wallet.ts'
import { nodeKeys } from './keys.ts'

/** Buys a node of `level`, paid in USDT from the asset balance; resolves the whole envelope ('Node purchased.'). */
export const buyNode = (level: string, idempotencyKey?: string) =>
  send(api.nodeBuy, { level, pay: 'balance' }, { idempotencyKey })

/** Buys a node: the server's msg as a toast either way, then fresh levels, nodes and balances. */
export function useBuyNode(onDone: () => void) {
  const queryClient = useQueryClient()
  return useMoneyAction({
    mutationFn: buyNode,
    onSuccess: ({ msg }) => {
      toast.success(msg || i18next.t('msg:node.purchased'))
      onDone()
    },
    onError: (error) => reportActionError(error),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: nodeKeys.all }),
        queryClient.invalidateQueries({ queryKey: userWalletKeys }),
      ]),
  })
}
