import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useNavigate } from 'react-router'
import { Modal } from '@/components/modal.tsx'
import { PrimaryButton } from '@/components/primary-button.tsx'
import { useCampaigns } from '../api/get-campaigns.ts'
import { hideCampaign, isCampaignHidden } from '../utils/campaign-hidden.ts'
import { RichText } from './rich-text.tsx'
import './notice.css'

/** Campaign pop-ups closed during this visit: each opens once per visit, not on every return to home. */
const closed = new Set<string>()

/**
 * A running campaign's pop-up (docs/product.md#campaigns) for a signed-in user: the notice dialog with its close
 * button, the campaign's text, the way to the progress page and "Don't show again" (kept per campaign on this device).
 * Nobody signed out sees it: the campaigns are not even asked for.
 */
export function CampaignPopup() {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const [, rerender] = useState(0)
  const [dontShow, setDontShow] = useState(false)
  const campaigns = useCampaigns()
  const campaign = campaigns.data?.list.find(
    (item) => item.status === 'running' && !closed.has(item.id) && !isCampaignHidden(item.id),
  )
  const close = () => {
    if (!campaign) return
    closed.add(campaign.id)
    if (dontShow) hideCampaign(campaign.id)
    setDontShow(false)
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
          <label className="campaign-popup-hide">
            <input
              type="checkbox"
              data-testid="campaign-popup-hide"
              checked={dontShow}
              onChange={(event) => setDontShow(event.target.checked)}
            />
            {t('campaign.dontShowAgain')}
          </label>
        </div>
      )}
    </Modal>
  )
}
