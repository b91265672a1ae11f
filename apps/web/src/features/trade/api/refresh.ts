import type { QueryClient } from '@tanstack/react-query'
import { userWalletKeys } from '../../../lib/user-wallet.ts'
import { tradeKeys } from './keys.ts'

/** After an order, a cancel or a swap: the book, the orders and the balances, and the price the home screen shows. */
export const refreshAfterTrade = (queryClient: QueryClient) =>
  Promise.all([
    queryClient.invalidateQueries({ queryKey: tradeKeys.all }),
    queryClient.invalidateQueries({ queryKey: userWalletKeys }),
    queryClient.invalidateQueries({ queryKey: ['home'] }),
  ])
