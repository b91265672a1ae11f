import { api, type MarketInfo } from '@solpledge/contract/client'
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query'
import i18next from 'i18next'
import { call } from '@/lib/api-client.ts'
import { showReceipt } from '@/lib/receipt.ts'
import { reportActionError } from '@/lib/report-action-error.ts'
import { toast } from '@/lib/toast.ts'
import { useMoneyAction } from '@/lib/use-money-action.ts'
import { orderReceipt } from '../utils/receipt.ts'
import { tradeKeys } from './keys.ts'

export interface QuoteRequest {
  from: string
  /** Base units of the asset given. */
  amount: bigint
  slippageBps: number
}

/** What swapping `amount` of `from` would give at the book now. Public. */
export const getSwapQuote = ({ from, amount, slippageBps }: QuoteRequest) =>
  call(api.swapQuote, { from, amount: amount.toString(), slippage_bps: slippageBps })

export type SwapQuote = Awaited<ReturnType<typeof getSwapQuote>>

/** The quote, read again as the book moves (live-market.ts); the previous one stays shown while the next loads. */
export const swapQuoteQueryOptions = (request: QuoteRequest | null) =>
  queryOptions({
    queryKey: tradeKeys.quote(request?.from ?? '', request?.amount.toString() ?? '', request?.slippageBps ?? 0),
    queryFn: () => getSwapQuote(request as QuoteRequest),
    enabled: request !== null,
    placeholderData: keepPreviousData,
  })

export const useSwapQuote = (request: QuoteRequest | null) => useQuery(swapQuoteQueryOptions(request))

export interface SwapRequest {
  from: string
  amount: bigint
  /** From the quote: the swap is refused with nothing changed when it would give less. */
  minReceived: string
}

/** Swaps at the book; the action's key is its client_order_id too. */
export const swap = ({ from, amount, minReceived }: SwapRequest, idempotencyKey: string) =>
  call(
    api.swap,
    { from, amount: amount.toString(), min_received: minReceived, client_order_id: idempotencyKey },
    { idempotencyKey },
  )

/**
 * Swaps: 'Swap completed' and its receipt, or the server's refusal (slippage, liquidity, balance); then fresh balances
 * and book.
 */
export function useSwap(market: MarketInfo, onDone: () => void) {
  return useMoneyAction({
    mutationFn: swap,
    // The same swap whatever the quote's minimum said when it was retried.
    inputOf: ({ from, amount }) => `${from}|${amount}`,
    onSuccess: ({ order }, { from }) => {
      toast.success(i18next.t('msg:trade.swapSuccess'))
      onDone()
      const to = from === market.symbol ? market.quote : market.symbol
      showReceipt(orderReceipt(market, order, i18next.t('receipt.title.swap', { from, to })))
    },
    onError: (error) => reportActionError(error),
    invalidates: 'trade',
  })
}
