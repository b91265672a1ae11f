import type { Stake } from '@solpledge/contract/client'
import type { TFunction } from 'i18next'
import type { Fact } from '@/components/facts.tsx'
import {
  type FigureKind,
  formatDateTime,
  formatDay,
  formatMoney,
  formatMultiple,
  formatPower,
  USDT,
} from '@/lib/format.ts'

/**
 * Every figure of a stake for its order detail (docs/product.md#records, and more), each at the precision of its kind
 * (lib/format.ts) as on the stake cards: the amount as a balance, outputs as outputs, the price as a price, power as
 * power.
 */
export function stakeFacts(t: TFunction, stake: Stake, language: string | undefined): Fact[] {
  const asset = { symbol: stake.coin, decimals: stake.decimals }
  const amount = (units: string, kind: FigureKind) => formatMoney(units, asset, language, kind)
  return [
    { id: 'amount', label: t('pledge.stakes.amount'), value: amount(stake.amount, 'balance'), testId: 'order-amount' },
    { id: 'price', label: t('pledge.order.price'), value: formatMoney(stake.price, USDT, language, 'price') },
    { id: 'value', label: t('pledge.order.value'), value: formatMoney(stake.usdt_value, USDT, language) },
    { id: 'period', label: t('pledge.order.period'), value: t('pledge.config.days', { count: stake.days }) },
    { id: 'multiple', label: t('pledge.order.outputMultiple'), value: formatMultiple(stake.output_bps, language) },
    { id: 'power', label: t('pledge.order.power'), value: formatPower(stake.power, language) },
    {
      id: 'total',
      label: t('pledge.order.totalOutput'),
      value: amount(stake.total_output, 'output'),
      testId: 'order-total',
    },
    {
      id: 'produced',
      label: t('pledge.stakes.produced'),
      value: amount(stake.produced, 'output'),
      testId: 'order-produced',
    },
    {
      id: 'remaining',
      label: t('pledge.stakes.remaining'),
      value: amount(stake.remaining, 'output'),
      testId: 'order-remaining',
    },
    { id: 'start', label: t('pledge.stakes.start'), value: formatDay(stake.start_day, language) },
    { id: 'end', label: t('pledge.stakes.end'), value: formatDay(stake.end_day, language) },
    {
      id: 'paid',
      label: t('pledge.order.paid'),
      value: stake.paid === 'chain' ? t('pledge.form.payChain') : t('pledge.form.payBalance'),
    },
    { id: 'created', label: t('pledge.order.created'), value: formatDateTime(stake.created_at, language) },
  ]
}
