import type { Stake } from '@solpledge/contract/client'
import type { TFunction } from 'i18next'
import type { Fact } from '@/components/facts.tsx'
import { formatAmountOf, formatDateTime, formatDay, formatMoney, formatMultiple, USDT } from '@/lib/format.ts'

/** Every figure of a stake for its order detail (docs/product.md#records, and more). */
export function stakeFacts(t: TFunction, stake: Stake, language: string | undefined): Fact[] {
  const amount = (units: string) =>
    formatMoney(units, { symbol: stake.coin, decimals: stake.decimals }, language, 'exact')
  const usdt = (units: string) => formatMoney(units, USDT, language, 'exact')
  return [
    { id: 'amount', label: t('pledge.stakes.amount'), value: amount(stake.amount), testId: 'order-amount' },
    { id: 'price', label: t('pledge.order.price'), value: usdt(stake.price) },
    { id: 'value', label: t('pledge.order.value'), value: usdt(stake.usdt_value) },
    { id: 'period', label: t('pledge.order.period'), value: t('pledge.config.days', { count: stake.days }) },
    { id: 'multiple', label: t('pledge.order.outputMultiple'), value: formatMultiple(stake.output_bps, language) },
    { id: 'power', label: t('pledge.order.power'), value: formatAmountOf(stake.power, USDT, language, 'exact') },
    { id: 'total', label: t('pledge.order.totalOutput'), value: amount(stake.total_output), testId: 'order-total' },
    { id: 'produced', label: t('pledge.stakes.produced'), value: amount(stake.produced), testId: 'order-produced' },
    {
      id: 'remaining',
      label: t('pledge.stakes.remaining'),
      value: amount(stake.remaining),
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
