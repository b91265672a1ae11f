import { useTranslation } from 'react-i18next'
import { useSignedInAddress } from '@/lib/session.ts'
import { useToday } from '@/lib/today.ts'
import { usePrice } from '../api/get-price.ts'
import './home-figures.css'
import { useFormat } from '@/lib/use-format.ts'

/**
 * The home statistics: latest price and trading pair for everyone; today's recommended power, direct new power, team
 * power and personal power once signed in. A figure that failed to load shows a dash (the failure is only logged).
 */
export function HomeFigures() {
  const { t } = useTranslation()
  const format = useFormat()
  const signedIn = useSignedInAddress() !== null
  const { data: price } = usePrice()
  const { data: today } = useToday()
  const power = (units: string | undefined) => (units === undefined ? '–' : format.power(units))
  const figures = [
    { id: 'recommended', value: power(today?.recommended_power) },
    { id: 'directNew', value: power(today?.direct_new_power) },
    { id: 'teamPower', value: power(today?.team_power) },
    { id: 'personalPower', value: power(today?.personal_power) },
  ] as const
  return (
    <section className="card home-figures" aria-label={t('home.figures.title')} data-testid="home-figures">
      <div className="home-price">
        <span className="home-pair" data-testid="home-pair">
          {price?.pair ?? '–'}
        </span>
        <span className="home-price-value" data-testid="home-price" data-price>
          {price ? `${format.price(price.price)} ${price.quote}` : '–'}
        </span>
        <span className="muted-note">{t('home.figures.price')}</span>
      </div>
      {signedIn ? (
        <dl className="home-figure-grid">
          {figures.map((figure) => (
            <div key={figure.id}>
              <dt>{t(`home.figures.${figure.id}`)}</dt>
              <dd data-testid={`home-${figure.id}`}>{figure.value}</dd>
            </div>
          ))}
        </dl>
      ) : (
        <p className="muted-note">{t('home.figures.signedOut')}</p>
      )}
    </section>
  )
}
