import type { AssetBalance } from '@solpledge/contract/client'
import { useCallback, useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Page } from '@/components/page.tsx'
import { SignedOut } from '@/components/signed-out.tsx'
import { useTokenBalances } from '@/lib/chain-balances.ts'
import { useSignedInAddress } from '@/lib/session.ts'
import { toast } from '@/lib/toast.ts'
import { useUserWallet } from '@/lib/user-wallet.ts'
import { AssetList } from './asset-list.tsx'
import { SolvencyCard } from './solvency-card.tsx'
import { TopUpDialog } from './top-up-dialog.tsx'
import { TopUpProgress } from './top-up-progress.tsx'
import { WalletBalances } from './wallet-balances.tsx'
import { WithdrawDialog } from './withdraw-dialog.tsx'
import './assets.css'

/** /assets: the user's balances with top-up and withdrawal, the wallet's on-chain balances, the platform's solvency. */
export function AssetsScreen() {
  const { t } = useTranslation()
  const address = useSignedInAddress()
  return (
    <Page title={t('screens.assets')}>
      {address ? <MyAssets /> : <SignedOut text={t('assets.signedOut')} testId="assets-signed-out" />}
      <SolvencyCard />
    </Page>
  )
}

function MyAssets() {
  const { t } = useTranslation(['ui', 'msg'])
  const { data: assets } = useUserWallet()
  const mints = useMemo(() => (assets ?? []).flatMap((asset) => (asset.mint ? [asset.mint] : [])), [assets])
  const tokens = useTokenBalances(mints)
  const topUp = useAssetDialog(assets)
  const withdraw = useAssetDialog(assets)

  const openTopUp = (asset: AssetBalance) => {
    if (asset.is_user_recharge === 1) topUp.show(asset)
    else toast.error(t('msg:assets.rechargeUnsupported'))
  }
  const openWithdraw = (asset: AssetBalance) => {
    if (asset.is_withdraw === 1) withdraw.show(asset)
    else toast.error(t('msg:assets.withdrawUnsupported'))
  }

  return (
    <>
      <AssetList assets={assets} onTopUp={openTopUp} onWithdraw={openWithdraw} />
      <TopUpProgress />
      <WalletBalances assets={assets ?? []} tokens={tokens} />
      <TopUpDialog
        open={topUp.open}
        asset={topUp.asset}
        walletBalance={topUp.asset?.mint ? tokens.data?.[topUp.asset.mint] : undefined}
        onClose={topUp.close}
      />
      <WithdrawDialog open={withdraw.open} asset={withdraw.asset} onClose={withdraw.close} />
    </>
  )
}

/** Which asset a dialog is for, read fresh from the balances; it keeps showing its asset while it fades out. */
function useAssetDialog(assets: readonly AssetBalance[] | undefined) {
  const [state, setState] = useState<{ coin: string; open: boolean } | null>(null)
  const close = useCallback(() => setState((current) => current && { ...current, open: false }), [])
  return {
    open: state?.open ?? false,
    asset: assets?.find((asset) => asset.coin === state?.coin) ?? null,
    show: (asset: AssetBalance) => setState({ coin: asset.coin, open: true }),
    close,
  }
}
