import type { AssetBalance } from '@solpledge/contract'
import { useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Page } from '../../../components/page.tsx'
import { toast } from '../../../lib/toast.ts'
import { useTokenBalances } from '../api/get-token-balances.ts'
import { useSignedInAddress, useUserWallet } from '../api/get-user-wallet.ts'
import { useResumeTopUp } from '../hooks/use-resume-top-up.ts'
import { AssetList } from './asset-list.tsx'
import { SignedOut } from './signed-out.tsx'
import { SolvencyCard } from './solvency-card.tsx'
import { TopUpDialog } from './top-up-dialog.tsx'
import { WalletBalances } from './wallet-balances.tsx'
import './assets.css'

/** /assets: the user's balances, the wallet's on-chain balances with top-up, and the platform's solvency. */
export function AssetsScreen() {
  const { t } = useTranslation()
  const address = useSignedInAddress()
  return (
    <Page title={t('screens.assets')}>
      {address ? <MyAssets /> : <SignedOut />}
      <SolvencyCard />
    </Page>
  )
}

function MyAssets() {
  const { t } = useTranslation(['ui', 'msg'])
  useResumeTopUp()
  const { data: assets } = useUserWallet({ poll: true })
  const mints = useMemo(() => (assets ?? []).flatMap((asset) => (asset.mint ? [asset.mint] : [])), [assets])
  const tokens = useTokenBalances(mints)
  const [topUp, setTopUp] = useState<{ coin: string; open: boolean } | null>(null)
  // The dialog keeps showing its asset while it fades out.
  const topUpAsset = assets?.find((asset) => asset.coin === topUp?.coin) ?? null

  const openTopUp = (asset: AssetBalance) => {
    if (asset.is_user_recharge === 1) setTopUp({ coin: asset.coin, open: true })
    else toast.error(t('msg:assets.rechargeUnsupported'))
  }

  return (
    <>
      <AssetList assets={assets} onTopUp={openTopUp} />
      <WalletBalances assets={assets ?? []} tokens={tokens} />
      <TopUpDialog
        open={topUp?.open ?? false}
        asset={topUpAsset}
        walletBalance={topUpAsset?.mint ? tokens.data?.[topUpAsset.mint] : undefined}
        onClose={() => setTopUp((current) => current && { ...current, open: false })}
      />
    </>
  )
}
