import { api, type BodyOf } from '@solpledge/contract/client'
import { call } from '../api-client.ts'

/**
 * What to pay on chain: recharge (coin and amount), stake (amount of {product} and days) or node (level; the amount
 * is its USDT price).
 */
export type IntentRequest = BodyOf<typeof api.intentCreate>

/**
 * Asks the server what to pay on chain, to whom, with which reference key: a payment intent. The same
 * `idempotencyKey` again answers the same intent.
 */
export const createIntent = (request: IntentRequest, idempotencyKey?: string) =>
  call(api.intentCreate, request, { idempotencyKey })
