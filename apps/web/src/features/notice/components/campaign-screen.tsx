import type { CampaignReward } from '@solpledge/contract/client'
import { useTranslation } from 'react-i18next'
import { BackLink } from '@/components/back-link.tsx'
import { EmptyState, Page } from '@/components/page.tsx'
import { SignedOut } from '@/components/signed-out.tsx'
import { formatDateTime } from '@/lib/format.ts'
import { useSignedInAddress } from '@/lib/session.ts'
import { useFormat } from '@/lib/use-format.ts'
import { type UserCampaign, useCampaigns } from '../api/get-campaigns.ts'
import { campaignProgress } from '../utils/campaign-progress.ts'
import { RichText } from './rich-text.tsx'
import './campaign.css'

/**
 * /campaign (docs/product.md#campaigns): the signed-in user's campaigns, each with its text, its tiers and the user's
 * progress to each (direct referrals and small-market fuel), and once ended the result.
 */
export function CampaignScreen() {
  const { t } = useTranslation()
  const address = useSignedInAddress()
  return (
    <Page title={t('screens.campaign')}>
      <BackLink to="/" />
      {address ? <Campaigns /> : <SignedOut text={t('campaign.signedOut')} testId="campaign-signed-out" />}
    </Page>
  )
}

function Campaigns() {
  const { t } = useTranslation()
  const { data, isError } = useCampaigns()
  if (!data)
    return isError ? (
      <EmptyState text={t('campaign.unavailable')} />
    ) : (
      <p className="muted-note">{t('common.loading')}</p>
    )
  if (data.list.length === 0) return <EmptyState text={t('campaign.none')} />
  return (
    <div className="campaign-list">
      {data.list.map((campaign) => (
        <CampaignCard key={campaign.id} campaign={campaign} />
      ))}
    </div>
  )
}

function Reward({ reward }: { reward: CampaignReward }) {
  const { t } = useTranslation()
  if (reward.kind === 'node') return <>{t('campaign.rewardNode', { level: reward.level })}</>
  if (reward.kind === 'trip') return <>{t('campaign.rewardTrip', { places: reward.places })}</>
  return <>{reward.text}</>
}

function CampaignCard({ campaign }: { campaign: UserCampaign }) {
  const { t, i18n } = useTranslation()
  const format = useFormat()
  const fuelUnits = { symbol: 'USDT', decimals: campaign.decimals }
  const fuel = (units: bigint | string) => format.amount(units, fuelUnits, 'power')
  const ended = campaign.status === 'ended'
  const titleId = `campaign-${campaign.id}-title`
  return (
    <section
      className="card campaign-card"
      aria-labelledby={titleId}
      data-testid="campaign-card"
      data-status={campaign.status}
      data-tier={campaign.tier}
    >
      <h2 id={titleId} className="section-title" lang={campaign.lang}>
        {campaign.title}
      </h2>
      <p className="muted-note">
        {t('campaign.dates', {
          start: formatDateTime(campaign.starts_at, i18n.resolvedLanguage),
          end: formatDateTime(campaign.ends_at, i18n.resolvedLanguage),
        })}{' '}
        <span className={ended ? 'badge' : 'badge badge-ok'}>{t(`campaign.status.${campaign.status}`)}</span>
      </p>
      <RichText className="notice-body" html={campaign.body} lang={campaign.lang} />
      <p className="campaign-result" data-testid="campaign-result" role="status">
        {campaign.tier > 0
          ? t(ended ? 'campaign.resultReached' : 'campaign.reached', { tier: campaign.tier })
          : t(ended ? 'campaign.resultNone' : 'campaign.noneYet')}
      </p>
      <p className="muted-note" data-testid="campaign-figures">
        {t('campaign.figures', { direct: format.count(campaign.direct_count), fuel: fuel(campaign.fuel) })}
      </p>
      <ol className="campaign-tiers">
        {campaignProgress(campaign).map((tier) => (
          <li
            key={tier.tier}
            className={tier.reached ? 'campaign-tier is-reached' : 'campaign-tier'}
            data-testid="campaign-tier"
            data-reached={tier.reached}
          >
            <div className="campaign-tier-head">
              <strong>{t('campaign.tier', { tier: tier.tier })}</strong>
              <span>
                <Reward reward={campaign.tiers[tier.tier - 1]?.reward as CampaignReward} />
              </span>
            </div>
            <Progress
              label={t('campaign.direct')}
              percent={tier.direct.percent}
              value={t('campaign.of', { have: format.count(tier.direct.have), need: format.count(tier.direct.need) })}
              testId="campaign-direct"
            />
            <Progress
              label={t('campaign.fuel')}
              percent={tier.fuel.percent}
              value={t('campaign.of', { have: fuel(tier.fuel.have), need: fuel(tier.fuel.need) })}
              testId="campaign-fuel"
            />
            {!tier.reached && !ended && (
              <p className="muted-note">
                {t('campaign.left', { direct: format.count(tier.direct.left), fuel: fuel(tier.fuel.left) })}
              </p>
            )}
          </li>
        ))}
      </ol>
      <p className="muted-note">{t('campaign.fuelHelp')}</p>
    </section>
  )
}

/** One minimum as a bar with its figures; the figures are the text, the bar only shows them. */
function Progress({
  label,
  percent,
  value,
  testId,
}: {
  label: string
  percent: number
  value: string
  testId: string
}) {
  return (
    <div className="campaign-progress" data-testid={testId} data-percent={percent}>
      <div className="campaign-progress-label">
        <span>{label}</span>
        <span>{value}</span>
      </div>
      <div className="campaign-bar" aria-hidden="true">
        <div className="campaign-fill" style={{ width: `${percent}%` }} />
      </div>
    </div>
  )
}
