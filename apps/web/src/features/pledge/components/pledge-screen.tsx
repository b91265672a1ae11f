import { useTranslation } from 'react-i18next'
import { Page } from '@/components/page.tsx'
import { SignedOut } from '@/components/signed-out.tsx'
import { useSignedInAddress } from '@/lib/session.ts'
import { FuelCard } from './fuel-card.tsx'
import { MyStakes } from './my-stakes.tsx'
import { StakeForm } from './stake-form.tsx'
import { TodayCard } from './today-card.tsx'
import './pledge.css'

/** /pledge: staking of {product} (configuration, amount, two ways to pay), the fuel bar, today's figures, my stakes. */
export function PledgeScreen() {
  const { t } = useTranslation()
  const address = useSignedInAddress()
  return (
    <Page title={t('screens.pledge')}>
      {address && <TodayCard />}
      <StakeForm signedIn={address !== null} />
      {address ? (
        <>
          <FuelCard />
          <MyStakes />
        </>
      ) : (
        <SignedOut text={t('pledge.signedOut')} testId="pledge-signed-out" />
      )}
    </Page>
  )
}
