import { api, type UserNode } from '@solpledge/contract/client'
import i18next from 'i18next'
import { send } from '@/lib/api-client.ts'
import { USDT } from '@/lib/format.ts'
import { type Receipt, receiptMoney, showReceipt } from '@/lib/receipt.ts'
import { reportActionError } from '@/lib/report-action-error.ts'
import { toast } from '@/lib/toast.ts'
import { useMoneyAction } from '@/lib/use-money-action.ts'
import { levelName } from '../components/level-name.ts'

/** Buys a node of `level`, paid in USDT from the asset balance; resolves the whole envelope ('Node purchased.'). */
export const buyNode = (level: string, idempotencyKey?: string) =>
  send(api.nodeBuy, { level, pay: 'balance' }, { idempotencyKey })

/** The receipt of a node bought from the balance: its level, what it cost, and that it is held. */
export function nodeReceipt(node: Pick<UserNode, 'level' | 'price_usdt'>): Receipt {
  const t = i18next.t
  return {
    title: t('receipt.title.node', { level: levelName(t, node.level) }),
    rows: [{ id: 'amount', label: t('node.confirm.price'), value: receiptMoney(node.price_usdt, USDT) }],
    state: { value: 'done', text: t('receipt.status.done'), tone: 'ok' },
  }
}

/** Buys a node: the server's msg as a toast either way, its receipt, then fresh levels, nodes and balances. */
export function useBuyNode(onDone: () => void) {
  return useMoneyAction({
    mutationFn: buyNode,
    onSuccess: ({ msg, data }) => {
      toast.success(msg || i18next.t('msg:node.purchased'))
      onDone()
      showReceipt(nodeReceipt(data))
    },
    onError: (error) => reportActionError(error),
    invalidates: 'nodeBuy',
  })
}
