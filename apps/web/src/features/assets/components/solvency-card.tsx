import { useTranslation } from 'react-i18next'
import { TokenIcon } from '@/components/token-icon.tsx'
import { formatDateTime } from '@/lib/format.ts'
import { useFormat } from '@/lib/use-format.ts'
import { useSolvency } from '../api/get-solvency.ts'
import { LiabilitiesProof } from './liabilities-proof.tsx'

/**
 * Reserves against what the platform owes its users, per asset, for anyone to check: what all users
 * hold here, against the platform's wallets on chain (the treasury receives top-ups, the hot wallet pays withdrawals);
 * then the latest proof-of-liabilities snapshot, which each signed-in user checks their own balance against.
 * See docs/design.md#solvency.
 */
export function SolvencyCard() {
  const { t, i18n } = useTranslation()
  const format = useFormat()
  const { data, isError } = useSolvency()
  return (
    <section className="card solvency-card" data-testid="solvency" aria-labelledby="solvency-title">
      <header className="section-head">
        <h2 id="solvency-title">{t('assets.solvency.title')}</h2>
      </header>
      <p className="muted-note">{t('assets.solvency.hint')}</p>
      {!data ? (
        <p className="muted-note">{isError ? t('assets.solvency.unavailable') : t('common.loading')}</p>
      ) : (
        <>
          <ul className="solvency-rows">
            {data.list.map((row) => (
              <li key={row.coin} data-testid="solvency-row" data-coin={row.coin} data-covered={row.covered}>
                <div className="solvency-head">
                  <span className="asset-name">
                    <TokenIcon symbol={row.coin} />
                    <span className="asset-symbol">{row.coin}</span>
                  </span>
                  <span className={row.covered ? 'badge badge-ok' : 'badge badge-bad'}>
                    {row.covered ? t('assets.solvency.covered') : t('assets.solvency.notCovered')}
                  </span>
                </div>
                <dl className="asset-split">
                  <div>
                    <dt>{t('assets.solvency.liabilities')}</dt>
                    <dd>{format.amount(row.liabilities, { symbol: row.coin, decimals: row.decimals })}</dd>
                  </div>
                  <div>
                    <dt>{t('assets.solvency.holdings')}</dt>
                    <dd>{format.amount(row.holdings, { symbol: row.coin, decimals: row.decimals })}</dd>
                  </div>
                </dl>
                <p className="solvency-breakdown">
                  {t('assets.solvency.breakdown', {
                    treasury: format.amount(row.treasury, { symbol: row.coin, decimals: row.decimals }),
                    hotWallet: format.amount(row.hot_wallet, { symbol: row.coin, decimals: row.decimals }),
                  })}
                </p>
              </li>
            ))}
          </ul>
          <p className="solvency-read-at" data-testid="solvency-read-at">
            {t('assets.solvency.readAt', { time: formatDateTime(data.read_at, i18n.resolvedLanguage) })}
          </p>
          {/* After the rows: appearing above them while they load, it would jump down once they are in. */}
          <LiabilitiesProof />
        </>
      )}
    </section>
  )
}
