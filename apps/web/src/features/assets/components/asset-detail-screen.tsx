import { useTranslation } from 'react-i18next'
import { Link, useSearchParams } from 'react-router'
import { EmptyState, Page } from '@/components/page.tsx'
import { SignedOut } from '@/components/signed-out.tsx'
import { useSignedInAddress } from '@/lib/session.ts'
import { useUserWallet } from '@/lib/user-wallet.ts'
import { AssetBalances } from './asset-balances.tsx'
import { MoneyLog } from './money-log.tsx'
import { WithdrawalList } from './withdrawal-list.tsx'
import './assets.css'

/** /assets/detail?coin=USDT: one asset's balances, its withdrawals and its ledger entries. */
export function AssetDetailScreen() {
  const { t } = useTranslation()
  const address = useSignedInAddress()
  return (
    <Page title={t('screens.assetsDetail')}>
      <Link className="back-link" to="/assets" data-testid="assets-back">
        {t('assets.detail.back')}
      </Link>
      {address ? <AssetDetail /> : <SignedOut text={t('assets.signedOut')} testId="assets-signed-out" />}
    </Page>
  )
}

function AssetDetail() {
  const { t } = useTranslation(['ui', 'msg'])
  const [params] = useSearchParams()
  const coin = params.get('coin') ?? ''
  const { data: assets, isError } = useUserWallet()
  const asset = assets?.find((item) => item.coin.toLowerCase() === coin.toLowerCase())

  if (!assets) return <p className="muted-note">{isError ? t('assets.detail.unavailable') : t('common.loading')}</p>
  if (!asset) return <EmptyState text={t('msg:assets.unknownAsset')} />
  return (
    <>
      <div className="card card-glow asset-card asset-detail-card" data-testid="asset-detail" data-coin={asset.coin}>
        <AssetBalances asset={asset} />
      </div>
      <WithdrawalList asset={asset} />
      <MoneyLog asset={asset} />
    </>
  )
}
