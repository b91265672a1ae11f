import { type AssetBalance, formatAmount } from '@solpledge/contract/client'
import { useTranslation } from 'react-i18next'

/** An asset's platform balance, split into available and locked. */
export function AssetBalances({ asset }: { asset: AssetBalance }) {
  const { t } = useTranslation()
  return (
    <>
      <div className="asset-head">
        <span className="asset-symbol">{asset.symbol}</span>
        <span className="asset-label">{t('assets.balance')}</span>
      </div>
      <p className="asset-balance" data-testid="asset-balance">
        {formatAmount(asset.balance, asset.decimals)}
      </p>
      <dl className="asset-split">
        <div>
          <dt>{t('assets.available')}</dt>
          <dd data-testid="asset-available">{formatAmount(asset.available, asset.decimals)}</dd>
        </div>
        <div>
          <dt>{t('assets.locked')}</dt>
          <dd data-testid="asset-locked">{formatAmount(asset.locked, asset.decimals)}</dd>
        </div>
      </dl>
    </>
  )
}
