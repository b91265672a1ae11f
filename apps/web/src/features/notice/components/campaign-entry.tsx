import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { useCampaigns } from '../api/get-campaigns.ts'
import './home-notices.css'

/** Home's way to the campaign page while the signed-in user has a campaign (also after its pop-up was seen). */
export function CampaignEntry() {
  const { t } = useTranslation()
  const campaign = useCampaigns().data?.list[0]
  if (!campaign) return null
  return (
    <Link className="card notice-strip" to="/campaign" data-testid="campaign-entry" lang={campaign.lang}>
      <span className="notice-strip-title">
        {t('campaign.entry')}: {campaign.title}
      </span>
      <span className="notice-strip-more">{t('campaign.entryAction')}</span>
    </Link>
  )
}
