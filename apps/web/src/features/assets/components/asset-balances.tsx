import type { AssetBalance } from '@solpledge/contract/client'
import { useTranslation } from 'react-i18next'
import { TokenIcon } from '@/components/token-icon.tsx'
import { USDT } from '@/lib/format.ts'
import { useFormat } from '@/lib/use-format.ts'

/** An asset's platform balance with its USDT value, split into available and locked. */
export function AssetBalances({ asset }: { asset: AssetBalance }) {
  const { t } = useTranslation()
  const format = useFormat()
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
        {format.amount(asset.balance, asset)}
      </p>
      {asset.usdt_value !== null && (
        <p className="asset-value" data-testid="asset-value">
          {t('assets.value', { amount: format.amount(asset.usdt_value, USDT) })}
        </p>
      )}
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
