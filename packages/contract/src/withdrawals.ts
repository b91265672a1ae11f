import { type Static, Type } from 'typebox'
import { BaseUnits, Coin, Page, PositiveBaseUnits, type RouteDef, route } from './common.ts'
import { Id } from './fields.ts'

// Withdrawals to the user's own wallet.

export const WithdrawalStatus = Type.Union([
  Type.Literal('review'),
  Type.Literal('pending'),
  Type.Literal('sent'),
  Type.Literal('confirmed'),
  Type.Literal('failed'),
  Type.Literal('rejected'),
])
export const Withdrawal = Type.Object({
  id: Id,
  coin: Coin,
  decimals: Type.Integer(),
  amount: PositiveBaseUnits,
  fee: BaseUnits,
  receive: PositiveBaseUnits,
  address: Type.String({ description: "The wallet the tokens are sent to (the user's own)" }),
  status: WithdrawalStatus,
  signature: Type.Union([Type.String(), Type.Null()]),
  /** Why the platform rejected it (status rejected), as the operator wrote it; null otherwise. */
  reason: Type.Union([Type.String(), Type.Null()]),
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
})
export type Withdrawal = Static<typeof Withdrawal>

export const withdrawalsRoutes = {
  withdraw: route({
    path: '/user/Withdraw/atm',
    idempotent: true,
    auth: true,
    tag: 'assets',
    summary:
      'Withdraw to your wallet: amount (fee included) moves from available to locked; large amounts wait for review',
    body: Type.Object({ coin: Coin, amount: PositiveBaseUnits }, { additionalProperties: false }),
    data: Withdrawal,
  }),
  withdrawList: route({
    path: '/user/Withdraw/lists',
    auth: true,
    tag: 'assets',
    summary: "The user's withdrawals with their status, newest first",
    body: Type.Object({ ...Page, coin: Type.Optional(Coin) }, { additionalProperties: false }),
    data: Type.Object({
      list: Type.Array(Withdrawal),
      total: Type.Integer(),
      page: Type.Integer(),
      limit: Type.Integer(),
    }),
  }),
} as const satisfies Record<string, RouteDef>
