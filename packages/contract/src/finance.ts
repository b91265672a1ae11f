import { type Static, Type } from 'typebox'
import {
  BaseUnits,
  Coin,
  Day,
  Empty,
  OptionalPage,
  PagedOf,
  PositiveBaseUnits,
  type RouteDef,
  route,
} from './common.ts'
import { Id } from './fields.ts'
import { OutputRecord } from './settlement.ts'

// Finance products: deposits for a period, redeemed at maturity.

export const FinanceStatus = Type.Union([Type.Literal('active'), Type.Literal('expired')])
export const FinanceProduct = Type.Object({
  days: Type.Integer(),
  power_bps: Type.Integer(),
  output_bps: Type.Integer(),
})
/** A finance deposit (docs/product.md#records): amounts in the deposit's coin, power in USDT base units. */
export const FinanceDeposit = Type.Object({
  id: Id,
  coin: Coin,
  decimals: Type.Integer(),
  amount: PositiveBaseUnits,
  days: Type.Integer(),
  power_bps: Type.Integer(),
  output_bps: Type.Integer(),
  power: BaseUnits,
  total_output: BaseUnits,
  output: BaseUnits,
  start_day: Day,
  end_day: Day,
  status: FinanceStatus,
  redeemable: Type.Boolean({ description: 'Expired and not yet redeemed' }),
  redeemed_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  created_at: Type.String({ format: 'date-time' }),
})
export type FinanceDeposit = Static<typeof FinanceDeposit>

export const financeRoutes = {
  financeProducts: route({
    path: '/invest/finance/products',
    auth: false,
    tag: 'finance',
    summary: 'Finance products: periods of 7, 30, 90 and 180 days with their power multiple and output',
    body: Empty,
    data: Type.Object({ coin: Coin, decimals: Type.Integer(), list: Type.Array(FinanceProduct) }),
  }),
  financeDeposit: route({
    path: '/invest/finance/deposit',
    idempotent: true,
    auth: true,
    tag: 'finance',
    summary: 'Deposit from the asset balance into a finance product for its period',
    body: Type.Object(
      { days: Type.Integer({ minimum: 1, maximum: 3650 }), amount: PositiveBaseUnits },
      {
        additionalProperties: false,
      },
    ),
    data: FinanceDeposit,
  }),
  financeList: route({
    path: '/invest/finance/lists',
    auth: true,
    tag: 'finance',
    summary: "The user's finance deposits of a status (active or expired), newest first",
    body: Type.Object({ status: FinanceStatus, ...OptionalPage }, { additionalProperties: false }),
    data: PagedOf(FinanceDeposit),
  }),
  financeDetail: route({
    path: '/invest/finance/detail',
    auth: true,
    tag: 'finance',
    summary: "One of the user's finance deposits with its output records, newest first",
    body: Type.Object({ id: Id, ...OptionalPage }, { additionalProperties: false }),
    data: Type.Object({ detail: FinanceDeposit, records: PagedOf(OutputRecord) }),
  }),
  financeRedeem: route({
    path: '/invest/finance/redeem',
    idempotent: true,
    auth: true,
    tag: 'finance',
    summary: 'Redeem a matured (expired) deposit to the asset balance; refused before maturity',
    body: Type.Object({ id: Id }, { additionalProperties: false }),
    data: FinanceDeposit,
  }),
} as const satisfies Record<string, RouteDef>
