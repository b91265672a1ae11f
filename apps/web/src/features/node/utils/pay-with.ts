/** How a node is paid: from the USDT asset balance, or on chain from the connected wallet. */
export type PayWith = 'balance' | 'chain'

/**
 * The way of paying a purchase starts on: the balance when it holds the price (or is not known yet), else the wallet
 * when it may; the balance when neither can (Confirm then says why, docs/product.md#nodes).
 */
export function defaultPayWith(canPay: Record<PayWith, boolean | undefined>): PayWith {
  if (canPay.balance !== false) return 'balance'
  return canPay.chain !== false ? 'chain' : 'balance'
}
