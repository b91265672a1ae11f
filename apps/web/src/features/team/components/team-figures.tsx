import { useTranslation } from 'react-i18next'
import { Facts } from '@/components/facts.tsx'
import { EmptyState } from '@/components/page.tsx'
import { useFormat } from '@/lib/use-format.ts'
import { useTeam } from '../api/get-team.ts'

/** Team and direct counts, team / personal / push performance, team and personal power and small-market fuel. */
export function TeamFigures() {
  const { t } = useTranslation()
  const format = useFormat()
  const { data, isError } = useTeam()
  if (!data)
    return isError ? (
      <EmptyState text={t('team.figures.unavailable')} />
    ) : (
      <p className="muted-note">{t('common.loading')}</p>
    )
  const usdtUnits = { symbol: 'USDT', decimals: data.decimals }
  const usdt = (units: string) => format.money(units, usdtUnits)
  const power = (units: string) => format.amount(units, usdtUnits, 'power')
  return (
    <section className="card team-card" aria-labelledby="team-figures-title" data-testid="team-figures">
      <h2 id="team-figures-title" className="section-title">
        {t('team.figures.title')}
      </h2>
      <div className="team-counts">
        <div>
          <span className="team-count" data-testid="team-count">
            {format.count(data.team_count)}
          </span>
          <span className="muted-note">{t('team.figures.teamCount')}</span>
        </div>
        <div>
          <span className="team-count" data-testid="direct-count">
            {format.count(data.direct_count)}
          </span>
          <span className="muted-note">{t('team.figures.directCount')}</span>
        </div>
      </div>
      <Facts
        facts={[
          {
            id: 'team-performance',
            label: t('team.figures.teamPerformance'),
            value: usdt(data.team_performance),
            testId: 'team-performance',
          },
          {
            id: 'personal-performance',
            label: t('team.figures.personalPerformance'),
            value: usdt(data.personal_performance),
            testId: 'personal-performance',
          },
          {
            id: 'push-performance',
            label: t('team.figures.pushPerformance'),
            value: usdt(data.push_performance),
            testId: 'push-performance',
          },
          { id: 'team-power', label: t('team.figures.teamPower'), value: power(data.team_power), testId: 'team-power' },
          {
            id: 'personal-power',
            label: t('team.figures.personalPower'),
            value: power(data.personal_power),
            testId: 'personal-power',
          },
          {
            id: 'small-market-fuel',
            label: t('team.figures.smallMarketFuel'),
            value: power(data.small_market_fuel),
            testId: 'small-market-fuel',
          },
        ]}
      />
    </section>
  )
}
