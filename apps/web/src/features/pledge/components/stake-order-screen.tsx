import { useTranslation } from 'react-i18next'
import { Link, useSearchParams } from 'react-router'
import { Facts } from '@/components/facts.tsx'
import { EmptyState, Page } from '@/components/page.tsx'
import { SignedOut } from '@/components/signed-out.tsx'
import { ApiError } from '@/lib/api-client.ts'
import { useSignedInAddress } from '@/lib/session.ts'
import { useStake } from '../api/get-stake.ts'
import { stakeFacts } from './stake-facts.ts'
import { stakeStatus } from './stake-status.ts'
import './pledge.css'

/** /pledge/orderDetail?id=…: one stake with all its figures and a link to its output details. */
export function StakeOrderScreen() {
  const { t } = useTranslation()
  const address = useSignedInAddress()
  return (
    <Page title={t('screens.pledgeOrderDetail')}>
      <Link className="back-link" to="/pledge" data-testid="pledge-back">
        {t('pledge.order.back')}
      </Link>
      {address ? <StakeOrder /> : <SignedOut text={t('pledge.signedOut')} testId="pledge-signed-out" />}
    </Page>
  )
}

function StakeOrder() {
  const { t, i18n } = useTranslation(['ui', 'msg'])
  const [params] = useSearchParams()
  const id = params.get('id') ?? ''
  const { data: stake, error } = useStake(id)

  if (!/^[1-9][0-9]*$/.test(id) || error instanceof ApiError) return <EmptyState text={t('msg:pledge.notFound')} />
  if (!stake) return <p className="muted-note">{error ? t('pledge.stakes.unavailable') : t('common.loading')}</p>
  const status = stakeStatus(t, stake.status)
  return (
    <section className="card pledge-card" data-testid="stake-order" data-id={stake.id} data-status={stake.status}>
      <header className="section-head">
        <h2>{t('pledge.order.title', { id: stake.id })}</h2>
        <span className={`badge badge-${status.tone}`}>{status.label}</span>
      </header>
      <Facts facts={stakeFacts(t, stake, i18n.resolvedLanguage)} />
      <Link className="pledge-link" to={`/pledge/detail?id=${stake.id}`} data-testid="stake-output-link">
        {t('pledge.order.outputDetail')}
      </Link>
    </section>
  )
}
