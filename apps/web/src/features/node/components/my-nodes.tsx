import { useTranslation } from 'react-i18next'
import { EmptyState } from '@/components/page.tsx'
import { useClientConfig } from '@/lib/client-config.ts'
import { formatDateTime } from '@/lib/format.ts'
import { useFormat } from '@/lib/use-format.ts'
import { findAsset, useUserWallet } from '@/lib/user-wallet.ts'
import { useMyNodes } from '../api/get-my-nodes.ts'
import { DEFAULT_PRODUCT_DECIMALS } from '../utils/format.ts'
import { levelName } from './level-name.ts'

/** The signed-in user's nodes: level, price paid, benefits, dividends so far and when each was bought. */
export function MyNodes() {
  const { t, i18n } = useTranslation()
  const format = useFormat()
  const { productSymbol } = useClientConfig()
  const { data: nodes, isError } = useMyNodes()
  const { data: assets } = useUserWallet()
  const product = findAsset(assets, productSymbol)
  const productDecimals = product?.decimals ?? DEFAULT_PRODUCT_DECIMALS
  const productLabel = product?.symbol ?? productSymbol

  return (
    <section className="node-section" data-testid="my-nodes">
      <h2 className="section-title">{t('node.mine.title')}</h2>
      {isError && !nodes ? (
        <p className="muted-note">{t('node.mine.unavailable')}</p>
      ) : !nodes ? (
        <p className="muted-note">{t('common.loading')}</p>
      ) : nodes.length === 0 ? (
        <EmptyState text={t('node.mine.empty')} />
      ) : (
        <ul className="node-list">
          {nodes.map((node) => (
            <li key={node.id} className="card node-card" data-testid="my-node" data-level={node.level}>
              <div className="node-card-head">
                <span className="node-name">{levelName(t, node.level)}</span>
                <time className="muted-note" dateTime={node.created_at}>
                  {formatDateTime(node.created_at, i18n.language)}
                </time>
              </div>
              <dl className="node-facts">
                <div>
                  <dt>{t('node.mine.pricePaid')}</dt>
                  <dd>{format.usdt(node.price_usdt)}</dd>
                </div>
                <div>
                  <dt>{t('node.powerBonus')}</dt>
                  <dd>{format.percent(node.power_bonus_bps)}</dd>
                </div>
                <div>
                  <dt>{t('node.dividendWeight')}</dt>
                  <dd>{format.count(node.dividend_weight)}</dd>
                </div>
                <div>
                  <dt>{t('node.mine.dividends')}</dt>
                  <dd data-testid="my-node-dividends">
                    {format.money(node.dividends, { symbol: productLabel, decimals: productDecimals }, 'output')}
                  </dd>
                </div>
              </dl>
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}
