import type { AssetBalance } from '@solpledge/contract/client'
import { useTranslation } from 'react-i18next'
import { useFormat } from '../../../lib/use-format.ts'

/** An asset's platform balance, split into available and locked. */
export function AssetBalances({ asset }: { asset: AssetBalance }) {
  const { t } = useTranslation()
  const format = useFormat()
  return (
    <>
      <div className="asset-head">
        <span className="asset-symbol">{asset.symbol}</span>
        <span className="asset-label">{t('assets.balance')}</span>
      </div>
      <p className="asset-balance" data-testid="asset-balance">
        {format.amount(asset.balance, asset)}
      </p>
      <dl className="asset-split">
        <div>
          <dt>{t('assets.available')}</dt>
          <dd data-testid="asset-available">{format.amount(asset.available, asset)}</dd>
        </div>
        <div>
          <dt>{t('assets.locked')}</dt>
          <dd data-testid="asset-locked">{format.amount(asset.locked, asset)}</dd>
        </div>
      </dl>
    </>
  )
}
