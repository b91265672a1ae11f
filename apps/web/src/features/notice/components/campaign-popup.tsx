import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useNavigate } from 'react-router'
import { Modal } from '@/components/modal.tsx'
import { PrimaryButton } from '@/components/primary-button.tsx'
import { useCampaigns } from '../api/get-campaigns.ts'
import { isCampaignSeen, markCampaignSeen } from '../utils/campaign-seen.ts'
import { RichText } from './rich-text.tsx'
import './notice.css'

/**
 * A running campaign's pop-up (docs/product.md#campaigns) for a signed-in user: the notice dialog with its close
 * button, the campaign's text and the way to the progress page. It opens once per campaign on a device: once closed
 * (by its button, the mask or the way to the page) it is kept as seen (storage key per campaign), and the next running
 * campaign, if any, opens. Nobody signed out sees it: the campaigns are not even asked for.
 */
export function CampaignPopup() {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const [, rerender] = useState(0)
  const campaigns = useCampaigns()
  const campaign = campaigns.data?.list.find((item) => item.status === 'running' && !isCampaignSeen(item.id))
  const close = () => {
    if (!campaign) return
    markCampaignSeen(campaign.id)
    rerender((n) => n + 1)
  }
  return (
    <Modal open={campaign !== undefined} testId="campaign-popup" title={campaign?.title ?? ''} onClose={close}>
      {campaign && (
        <div className="campaign-popup" lang={campaign.lang}>
          <RichText className="notice-body" html={campaign.body} />
          <PrimaryButton
            data-testid="campaign-popup-progress"
            onClick={() => {
              close()
              navigate('/campaign')
            }}
          >
            {t('campaign.viewProgress')}
          </PrimaryButton>
        </div>
      )}
    </Modal>
  )
}
