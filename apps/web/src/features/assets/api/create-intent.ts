import { api } from '@solpledge/contract'
import { call } from '../../../lib/api-client.ts'

/** Asks the server what to pay on chain for a top-up of `amount` base units: a payment intent. */
export const createRechargeIntent = (coin: string, amount: bigint) =>
  call(api.intentCreate, { purpose: 'recharge', coin, amount: amount.toString() })
