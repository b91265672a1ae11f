import { type Returns, receivedBy } from '@solpledge/contract/client'
import { useId, useMemo } from 'react'
import { useTranslation } from 'react-i18next'
import type { Denomination } from '@/lib/format.ts'
import { useFormat } from '@/lib/use-format.ts'
import { type Fact, Facts } from './facts.tsx'
import { OptionGroup } from './option-group.tsx'
import './returns.css'

/** Days of a term a calculator lists what has been paid by (with the last day of the term). */
const MILESTONES = [1, 7, 30, 90, 180, 365]

/** The days a calculator shows for a term of `days`: the milestones within it, then its last day. */
export const scheduleDays = (days: number) => [...MILESTONES.filter((day) => day < days), days]

/**
 * The texts of expected returns (packages/contract/src/returns.ts), every figure through the one formatter: an amount
 * of the output asset with its USDT value beside it (not for an asset that is USDT), the APR as a percentage.
 */
export function useReturnsText() {
  const { t } = useTranslation()
  const format = useFormat()
  return useMemo(() => {
    const withUsdt = (amount: bigint, usdt: bigint, asset: Denomination) => {
      const money = format.money(amount, asset, 'output')
      return asset.symbol === 'USDT'
        ? money
        : t('returns.withUsdt', { amount: money, usdt: format.usdt(usdt, 'output') })
    }
    return {
      withUsdt,
      /** '7.066666 PLG ≈ 3.53 USDT' */
      daily: (r: Returns, asset: Denomination) => withUsdt(r.daily, r.dailyUsdt, asset),
      /** The whole term's output, or a year's for a node. */
      total: (r: Returns, asset: Denomination) => withUsdt(r.total, r.totalUsdt, asset),
      /** '73%' */
      apr: (r: Returns) => format.rate(r.apr),
    }
  }, [t, format])
}

/**
 * The lines of an option card (a staking period, a finance term): output per day and in total for the reference
 * amount the form names, and the APR. Phrasing content, so they may sit inside the card's label.
 */
export function ReturnsLines({ returns, asset }: { returns: Returns; asset: Denomination }) {
  const { t } = useTranslation()
  const text = useReturnsText()
  return (
    <>
      <span className="returns-line" data-testid="returns-daily">
        {t('returns.dailyLine', { amount: text.daily(returns, asset) })}
      </span>
      <span className="returns-line" data-testid="returns-total">
        {returns.days === null
          ? t('returns.yearlyLine', { amount: text.total(returns, asset) })
          : t('returns.totalLine', { amount: text.total(returns, asset) })}
      </span>
      <span className="returns-line returns-apr" data-testid="returns-apr">
        {t('returns.aprLine', { rate: text.apr(returns) })}
      </span>
    </>
  )
}

interface ReturnsCalculatorProps {
  /** The returns of the amount typed; nothing shows without one. */
  returns: Returns | null
  /** The asset the position pays in. */
  asset: Denomination
  /** Figures of the position shown above the returns (e.g. its USDT value and power). */
  before?: readonly Fact[]
  testId: string
}

/**
 * The calculator under an amount field: what the amount typed earns per day and in total, its APR, and what has been
 * paid by each milestone day of the term, as the settlement pays it (the last day pays the rounding rest). Test ids:
 * `<testId>`, `-daily`, `-total`, `-apr`, and `-day` rows with `data-day`.
 */
export function ReturnsCalculator({ returns, asset, before = [], testId }: ReturnsCalculatorProps) {
  const { t } = useTranslation()
  const text = useReturnsText()
  const titleId = useId()
  if (!returns) return null
  const days = returns.days
  return (
    <section className="returns-calculator" aria-labelledby={titleId} data-testid={testId}>
      <h3 id={titleId} className="returns-title">
        {t('returns.calculator.title')}
      </h3>
      <Facts
        facts={[
          ...before,
          { id: 'daily', label: t('returns.perDay'), value: text.daily(returns, asset), testId: `${testId}-daily` },
          { id: 'total', label: t('returns.total'), value: text.total(returns, asset), testId: `${testId}-total` },
          { id: 'apr', label: t('returns.apr'), value: text.apr(returns), testId: `${testId}-apr` },
        ]}
      />
      {days !== null && (
        <table className="returns-schedule">
          <caption>{t('returns.calculator.byDay')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('returns.calculator.day')}</th>
              <th scope="col">{t('returns.calculator.received')}</th>
            </tr>
          </thead>
          <tbody>
            {scheduleDays(days).map((day) => {
              const paid = receivedBy(returns, day)
              return (
                <tr key={day} data-testid={`${testId}-day`} data-day={day}>
                  <th scope="row">
                    {day === days ? t('returns.calculator.lastDay', { day }) : t('returns.calculator.dayN', { day })}
                  </th>
                  <td>{text.withUsdt(paid.amount, paid.usdt, asset)}</td>
                </tr>
              )
            })}
          </tbody>
        </table>
      )}
      <p className="returns-note">{t('returns.estimate')}</p>
    </section>
  )
}

/** One-line explanations under a group of options (what "output ×" and "power" mean), visible, not on hover. */
export function HelpLines({ lines }: { lines: readonly { id: string; text: string }[] }) {
  return (
    <ul className="help-lines">
      {lines.map((line) => (
        <li key={line.id} data-testid={`help-${line.id}`}>
          {line.text}
        </li>
      ))}
    </ul>
  )
}

/**
 * The terms of a product (staking periods, finance terms) as option cards, one column: each card its title, its rates
 * line and the returns of the form's reference amount. `name` is the radio group's name and the cards' test id.
 */
export function TermOptions<P extends { days: number }>({
  legend,
  name,
  terms,
  value,
  onChange,
  title,
  rates,
  returns,
  asset,
}: {
  legend: string
  name: string
  terms: readonly P[]
  value: number | null
  onChange: (days: number) => void
  title: (term: P) => string
  rates: (term: P) => string
  returns: (term: P) => Returns
  asset: Denomination
}) {
  return (
    <OptionGroup
      legend={legend}
      name={name}
      testId={name}
      value={value}
      onChange={onChange}
      columns={1}
      options={terms.map((term) => ({
        value: term.days,
        title: title(term),
        details: [rates(term), <ReturnsLines key="returns" returns={returns(term)} asset={asset} />],
      }))}
    />
  )
}
