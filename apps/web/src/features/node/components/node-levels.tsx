import { nodeReturns } from '@solpledge/contract/client'
import { useTranslation } from 'react-i18next'
import { EmptyState } from '@/components/page.tsx'
import { PrimaryButton } from '@/components/primary-button.tsx'
import { HelpLines, useReturnsText } from '@/components/returns.tsx'
import { useFormat } from '@/lib/use-format.ts'
import { type NodeLevels as Levels, type NodeLevel, useNodeLevels } from '../api/get-node-levels.ts'
import { levelName } from './level-name.ts'

interface NodeLevelsProps {
  /** Without it (nobody signed in) the cards show no Buy button. */
  onBuy?: (level: NodeLevel) => void
  /** The levels the user holds a node of: a one-per-user level among them shows Owned instead of Buy. */
  owned?: ReadonlySet<string>
}

/**
 * The node levels on sale, one card each: price, benefits, supply, and a Buy button (Owned, disabled, once the user
 * holds a one-per-user level).
 */
export function NodeLevels({ onBuy, owned }: NodeLevelsProps) {
  const { t } = useTranslation()
  const format = useFormat()
  const { data, isError, refetch } = useNodeLevels()
  const levels = data?.list
  const pool = data?.pool
  return (
    <section className="node-section" data-testid="node-levels">
      <h2 className="section-title">{t('node.levels.title')}</h2>
      {isError && !levels ? (
        <div className="card node-unavailable">
          <p className="muted-note">{t('node.levels.unavailable')}</p>
          <button type="button" className="node-retry" onClick={() => refetch()}>
            {t('common.retry')}
          </button>
        </div>
      ) : !levels ? (
        <p className="muted-note">{t('common.loading')}</p>
      ) : levels.length === 0 ? (
        <EmptyState text={t('node.levels.empty')} />
      ) : (
        <>
          <ul className="node-list">
            {levels.map((level) => (
              <LevelCard
                key={level.code}
                level={level}
                pool={pool as Levels['pool']}
                onBuy={onBuy}
                owned={owned?.has(level.code) ?? false}
              />
            ))}
          </ul>
          <HelpLines
            lines={[
              {
                id: 'dividends',
                text: t('node.levels.dividendsHelp', {
                  pool: pool ? format.money(pool.daily, { symbol: pool.coin, decimals: pool.decimals }) : '',
                }),
              },
              { id: 'power', text: t('node.levels.powerHelp') },
            ]}
          />
          <p className="returns-note">{t('returns.estimate')}</p>
        </>
      )}
    </section>
  )
}

interface LevelCardProps {
  level: NodeLevel
  pool: Levels['pool']
  onBuy?: ((level: NodeLevel) => void) | undefined
  owned: boolean
}

function LevelCard({ level, pool, onBuy, owned }: LevelCardProps) {
  const { t } = useTranslation()
  const format = useFormat()
  const text = useReturnsText()
  const returns = nodeReturns(level, pool)
  const asset = { symbol: pool.coin, decimals: pool.decimals }
  const soldOut = level.remaining <= 0
  const ownedOnly = level.one_per_user && owned
  return (
    <li className="card node-card" data-testid="node-level" data-level={level.code}>
      <div className="node-card-head">
        <span className="node-name" data-testid="node-level-name">
          {levelName(t, level.code)}
        </span>
        <span className="node-price" data-testid="node-level-price">
          {format.usdt(level.price_usdt)}
        </span>
      </div>
      <dl className="node-facts">
        <div>
          <dt>{t('node.powerBonus')}</dt>
          <dd data-testid="node-level-power">{format.percent(level.power_bonus_bps)}</dd>
        </div>
        <div>
          <dt>{t('node.levels.daily')}</dt>
          <dd data-testid="returns-daily">{text.daily(returns, asset)}</dd>
        </div>
        <div>
          <dt>{t('node.levels.yearly')}</dt>
          <dd data-testid="returns-total">{text.total(returns, asset)}</dd>
        </div>
        <div>
          <dt>{t('returns.apr')}</dt>
          <dd data-testid="returns-apr">{text.apr(returns)}</dd>
        </div>
        <div>
          <dt>{t('node.dividendWeight')}</dt>
          <dd data-testid="node-level-weight">{format.count(level.dividend_weight)}</dd>
        </div>
        <div>
          <dt>{t('node.levels.supply')}</dt>
          <dd data-testid="node-level-sold">
            {t('node.levels.sold', { sold: format.count(level.sold), cap: format.count(level.supply_cap) })}
          </dd>
        </div>
        <div>
          <dt>{t('node.levels.remaining')}</dt>
          <dd data-testid="node-level-remaining">{format.count(level.remaining)}</dd>
        </div>
      </dl>
      {level.one_per_user && <p className="muted-note">{t('node.levels.onePerUser')}</p>}
      {onBuy && (
        <PrimaryButton data-testid="node-buy" disabled={soldOut || ownedOnly} onClick={() => onBuy(level)}>
          {ownedOnly ? t('node.levels.owned') : soldOut ? t('node.levels.soldOut') : t('node.levels.buy')}
        </PrimaryButton>
      )}
    </li>
  )
}
