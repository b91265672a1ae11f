import { type AssetBalance, formatAmount } from '@solpledge/contract/client'
import { useTranslation } from 'react-i18next'
import { TokenIcon } from '../../../components/token-icon.tsx'
import { USDT_DECIMALS } from '../../../lib/format.ts'

/** An asset's platform balance with its USDT value, split into available and locked. */
export function AssetBalances({ asset }: { asset: AssetBalance }) {
  const { t } = useTranslation()
  return (
    <>
      <div className="asset-head">
        <span className="asset-name">
          <TokenIcon symbol={asset.symbol} />
          <span className="asset-symbol">{asset.symbol}</span>
        </span>
        <span className="asset-label">{t('assets.balance')}</span>
      </div>
      <p className="asset-balance" data-testid="asset-balance">
        {formatAmount(asset.balance, asset.decimals)}
      </p>
      {asset.usdt_value !== null && (
        <p className="asset-value" data-testid="asset-value">
          {t('assets.value', { amount: formatAmount(asset.usdt_value, USDT_DECIMALS) })}
        </p>
      )}
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
