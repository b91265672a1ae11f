import { useTranslation } from 'react-i18next'
import { formatDay } from '@/lib/format.ts'
import { useSignedInAddress } from '@/lib/session.ts'
import { useToday } from '@/lib/today.ts'
import { useFormat } from '@/lib/use-format.ts'
import { useUserWallet } from '@/lib/user-wallet.ts'
import { usePrice } from '../api/get-price.ts'
import { balanceInUsdt, creditsInUsdt } from '../utils/earnings.ts'
import './home-figures.css'

/**
 * The home statistics: latest price and trading pair for everyone; once signed in, the user's balance in USDT and the
 * earnings of the newest settled day (in USDT, then per coin), today's recommended power, direct new power, team power
 * and personal power. A figure that failed to load shows a dash (the failure is only logged).
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
      {signedIn && <AccountFigures today={today} price={price} />}
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

interface AccountFiguresProps {
  today: ReturnType<typeof useToday>['data']
  price: ReturnType<typeof usePrice>['data']
}

/** The user's balance in USDT and the earnings of the newest settled day (what the day's settlement credited). */
function AccountFigures({ today, price }: AccountFiguresProps) {
  const { t, i18n } = useTranslation()
  const format = useFormat()
  const { data: assets } = useUserWallet()
  const credits = today?.output.filter((item) => BigInt(item.amount) > 0n) ?? []
  const earned = today ? creditsInUsdt(credits, price) : null
  return (
    <dl className="home-figure-grid home-account-figures">
      <div>
        <dt>{t('home.figures.balance')}</dt>
        <dd data-testid="home-balance">
          {assets ? t('home.figures.balanceValue', { amount: format.usdt(balanceInUsdt(assets)) }) : '–'}
        </dd>
      </div>
      <div>
        <dt data-testid="home-earnings-day">
          {today?.settled_day
            ? t('home.figures.earnings', { day: formatDay(today.settled_day, i18n.resolvedLanguage) })
            : t('home.figures.noEarnings')}
        </dt>
        <dd data-testid="home-earnings">
          {earned === null ? '–' : `${format.usdt(earned, 'output')}`}
          {credits.map((item) => (
            <span key={item.coin} className="home-earnings-coin" data-coin={item.coin}>
              {format.money(item.amount, { symbol: item.coin, decimals: item.decimals }, 'output', true)}
            </span>
          ))}
        </dd>
      </div>
    </dl>
  )
}
