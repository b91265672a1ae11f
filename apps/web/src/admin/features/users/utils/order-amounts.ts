import type { TradeOrder } from '@solpledge/contract/client'
import { formatUnits } from '@/admin/lib/units.ts'

export interface OrderAsset {
  symbol: string
  decimals: number
}

const show = (units: string, asset: OrderAsset) => formatUnits(units, asset.decimals, asset.symbol)

/**
 * A quick-trade order's amounts as the console shows them: the limit price in USDT per whole token (null for a swap,
 * which has none); the ordered, filled and remaining amounts in the product; the earnings in the asset received,
 * USDT for a sell and the product for a buy.
 */
export function orderAmounts(order: TradeOrder, product: OrderAsset, usdt: OrderAsset) {
  return {
    price: order.price === null ? null : show(order.price, usdt),
    amount: show(order.amount, product),
    sold: show(order.sold_amount, product),
    remaining: show(order.remaining_amount, product),
    earnings: show(order.total_earnings, order.type === 'sell' ? usdt : product),
  }
}
