import type { AssetBalance } from '@solpledge/contract/client'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { EmptyState } from '@/components/page.tsx'
import { Skeleton } from '@/components/skeleton.tsx'
import { USDT } from '@/lib/format.ts'
import { useFormat } from '@/lib/use-format.ts'
import { AssetBalances } from './asset-balances.tsx'

interface AssetListProps {
  assets: readonly AssetBalance[] | undefined
  onTopUp: (asset: AssetBalance) => void
  onWithdraw: (asset: AssetBalance) => void
}

/** The user's balances on the platform: their total value in USDT, then one card per asset. */
export function AssetList({ assets, onTopUp, onWithdraw }: AssetListProps) {
  const { t } = useTranslation()
  const format = useFormat()
  if (!assets) return <Skeleton rows={2} height={150} />
  if (assets.length === 0) return <EmptyState />
  // The total of what has a USDT value (every asset of the platform has: USDT and the platform token).
  const total = assets.reduce((sum, asset) => sum + BigInt(asset.usdt_value ?? 0), 0n)
  return (
    <>
      <section className="card card-glow asset-total" data-testid="asset-total" aria-labelledby="asset-total-title">
        <h2 id="asset-total-title" className="asset-label">
          {t('assets.total')}
        </h2>
        <p className="asset-balance">
          <span data-testid="asset-total-value">{format.amount(total, USDT)}</span> <small>USDT</small>
        </p>
      </section>
      <AssetCards assets={assets} onTopUp={onTopUp} onWithdraw={onWithdraw} />
    </>
  )
}

function AssetCards({ assets, onTopUp, onWithdraw }: AssetListProps & { assets: readonly AssetBalance[] }) {
  const { t } = useTranslation()
  return (
    <ul className="asset-list" data-testid="asset-list">
      {assets.map((asset) => (
        <li key={asset.coin} className="card card-glow asset-card" data-testid="asset-row" data-coin={asset.coin}>
          <AssetBalances asset={asset} />
          <div className="asset-actions">
            <button
              type="button"
              className="asset-action asset-action-primary"
              data-testid="recharge-button"
              aria-disabled={asset.is_user_recharge !== 1}
              onClick={() => onTopUp(asset)}
            >
              {t('assets.topUp')}
            </button>
            <button
              type="button"
              className="asset-action"
              data-testid="withdraw-button"
              aria-disabled={asset.is_withdraw !== 1}
              onClick={() => onWithdraw(asset)}
            >
              {t('assets.withdraw')}
            </button>
            <Link
              className="asset-action"
              data-testid="asset-detail-link"
              to={`/assets/detail?coin=${encodeURIComponent(asset.coin)}`}
            >
              {t('assets.details')}
            </Link>
          </div>
        </li>
      ))}
    </ul>
  )
}
