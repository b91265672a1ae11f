import { useTranslation } from 'react-i18next'
import { type Fact, Facts } from '@/components/facts.tsx'
import { USDT_DECIMALS } from '@/lib/format.ts'
import { useFormat } from '@/lib/use-format.ts'
import { useFuel } from '../api/get-fuel.ts'
import { fuelProgress, tierMarks } from '../utils/fuel.ts'

/** Fuel is power, counted in USDT base units; the tiers are whole USDT of power. */
const USDT_UNIT = 10n ** BigInt(USDT_DECIMALS)

/**
 * The fuel bar: the user's small-market fuel (team power minus the largest direct leg) against the tiers 3000 …
 * 100000, and the platform's total fuel bar figure.
 */
export function FuelCard() {
  const { t } = useTranslation()
  const { power } = useFormat()
  const { data: fuel, isError } = useFuel()

  if (!fuel)
    return (
      <section className="card pledge-card">
        <p className="muted-note">{isError ? t('pledge.fuel.unavailable') : t('common.loading')}</p>
      </section>
    )

  const mine = BigInt(fuel.my_fuel)
  const progress = fuelProgress(mine, fuel.tiers, USDT_UNIT)
  const marks = tierMarks(fuel.tiers)
  const facts: Fact[] = [
    { id: 'team', label: t('pledge.fuel.teamPower'), value: power(fuel.team_power) },
    { id: 'leg', label: t('pledge.fuel.largestLeg'), value: power(fuel.largest_leg) },
    { id: 'total', label: t('pledge.fuel.total'), value: power(fuel.total_fuel), testId: 'fuel-total' },
  ]

  return (
    <section className="card pledge-card" data-testid="pledge-fuel" aria-labelledby="pledge-fuel-title">
      <header className="section-head">
        <h2 id="pledge-fuel-title">{t('pledge.fuel.title')}</h2>
      </header>
      <p className="fuel-own">
        <span className="muted-note">{t('pledge.fuel.mine')}</span>
        <span className="fuel-mine" data-testid="fuel-mine">
          {power(mine)}
        </span>
      </p>
      <div className="fuel-bar" aria-hidden="true" data-testid="fuel-bar" data-reached={progress.reached}>
        <div className="fuel-fill" style={{ width: `${progress.percent}%` }} />
        {marks.map((mark, index) => (
          <span key={fuel.tiers[index]} className="fuel-mark" style={{ left: `${mark}%` }} />
        ))}
      </div>
      <ol className="fuel-tiers" style={{ gridTemplateColumns: `repeat(${Math.max(fuel.tiers.length, 1)}, 1fr)` }}>
        {fuel.tiers.map((tier, index) => (
          <li key={tier} className={index < progress.reached ? 'is-reached' : undefined} data-testid="fuel-tier">
            {power(BigInt(tier) * USDT_UNIT)}
          </li>
        ))}
      </ol>
      <p className="muted-note" data-testid="fuel-next">
        {progress.next === null || progress.toNext === null
          ? t('pledge.fuel.allReached')
          : t('pledge.fuel.next', { amount: power(progress.toNext), tier: power(BigInt(progress.next) * USDT_UNIT) })}
      </p>
      <Facts facts={facts} />
    </section>
  )
}
