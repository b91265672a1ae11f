import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { type Fact, Facts } from '@/components/facts.tsx'
import { formatDay } from '@/lib/format.ts'
import { useToday } from '@/lib/today.ts'
import { useFormat } from '@/lib/use-format.ts'

/** The user's output of the newest settled day, under that day, and today's power figures (in USDT of power). */
export function TodayCard() {
  const { t, i18n } = useTranslation()
  const format = useFormat()
  const { data: today, isError } = useToday()

  if (!today)
    return (
      <section className="card pledge-card">
        <p className="muted-note">{isError ? t('pledge.today.unavailable') : t('common.loading')}</p>
      </section>
    )

  const facts: Fact[] = [
    {
      id: 'personal',
      label: t('pledge.today.personalPower'),
      value: format.power(today.personal_power),
      testId: 'today-personal-power',
    },
    {
      id: 'team',
      label: t('pledge.today.teamPower'),
      value: format.power(today.team_power),
      testId: 'today-team-power',
    },
    { id: 'direct', label: t('pledge.today.directNewPower'), value: format.power(today.direct_new_power) },
    { id: 'recommended', label: t('pledge.today.recommendedPower'), value: format.power(today.recommended_power) },
  ]
  const output = today.output.filter((item) => BigInt(item.amount) > 0n)

  // The output belongs to the newest settled day, which need not be today (a day may be settled ahead): it carries
  // its own day, and "Today" heads only the power figures.
  return (
    <section className="card pledge-card today-card" data-testid="pledge-today" aria-labelledby="pledge-today-title">
      <header className="section-head">
        <h2 id="pledge-today-title" data-testid="today-output-day">
          {today.settled_day
            ? t('pledge.today.output', { day: formatDay(today.settled_day, i18n.resolvedLanguage) })
            : t('pledge.today.noSettlement')}
        </h2>
        <Link to="/pledge/history" className="today-history-link" data-testid="pledge-history-link">
          {t('history.link')}
        </Link>
      </header>
      <div className="today-output" data-testid="today-output">
        {output.length === 0 ? (
          <span className="today-output-amount">0</span>
        ) : (
          output.map((item) => (
            <span
              key={item.coin}
              className="today-output-amount"
              data-testid="today-output-amount"
              data-coin={item.coin}
            >
              {format.money(item.amount, { symbol: item.coin, decimals: item.decimals }, 'output', true)}
            </span>
          ))
        )}
      </div>
      <div className="section-head">
        <h3 className="today-power-title">{t('pledge.today.title')}</h3>
        <time className="muted-note" dateTime={today.day} data-testid="today-day">
          {formatDay(today.day, i18n.resolvedLanguage)}
        </time>
      </div>
      <Facts facts={facts} />
    </section>
  )
}
