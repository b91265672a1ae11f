import { useTranslation } from 'react-i18next'
import { BackLink } from '@/components/back-link.tsx'
import { Page } from '@/components/page.tsx'
import { SignedOut } from '@/components/signed-out.tsx'
import { useSignedInAddress } from '@/lib/session.ts'
import { DepositForm } from './deposit-form.tsx'
import { MyDeposits } from './my-deposits.tsx'
import './finance.css'

/** /finance: the fixed-period products with a deposit from the balance, and the user's deposits. */
export function FinanceScreen() {
  const { t } = useTranslation()
  const address = useSignedInAddress()
  return (
    <Page title={t('screens.finance')}>
      <BackLink to="/" />
      <DepositForm signedIn={address !== null} />
      {address ? <MyDeposits /> : <SignedOut text={t('finance.signedOut')} testId="finance-signed-out" />}
    </Page>
  )
}
