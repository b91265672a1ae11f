import { adminApi } from '@solpledge/contract/admin'
import { type AdminCampaign, CAMPAIGN_MAX_TIERS } from '@solpledge/contract/client'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useAllowed } from '@/admin/lib/api-client.ts'
import { isoToLocal, localToIso } from '@/admin/lib/local-time.ts'
import { USDT_DECIMALS } from '@/lib/format.ts'
import { useNodeLevels, useSaveCampaign } from '../api/content.ts'
import { defaultTiers, readTiers, type TierDraft, tiersDraft } from '../utils/campaign-tiers.ts'
import { EditorForm, useTranslationsEditor } from './editor-form.tsx'
import { RichBodyField } from './notice-editor.tsx'

const FIELDS = ['title', 'body'] as const

interface CampaignEditorProps {
  /** The campaign to edit, or null for a new one. */
  campaign: AdminCampaign | null
  onClose: () => void
}

/**
 * A campaign (docs/admin.md#campaigns): title and rich-text body in five languages (English required), start and end,
 * and its tiers. Editable until it starts; after that it opens read-only.
 */
export function CampaignEditor({ campaign, onClose }: CampaignEditorProps) {
  const { t } = useTranslation('admin')
  const canSave = useAllowed(adminApi.adminCampaignSave)
  const editable = campaign === null || campaign.status === 'upcoming'
  const editor = useTranslationsEditor(FIELDS, campaign?.translations ?? [])
  const { lang, texts, edit } = editor
  const decimals = campaign?.decimals ?? USDT_DECIMALS
  const [startsAt, setStartsAt] = useState(campaign ? isoToLocal(campaign.starts_at) : '')
  const [endsAt, setEndsAt] = useState(campaign ? isoToLocal(campaign.ends_at) : '')
  const [tiers, setTiers] = useState(() => (campaign ? tiersDraft(campaign.tiers, decimals) : defaultTiers()))
  const save = useSaveCampaign(onClose)
  const disabled = !canSave || !editable || save.isPending

  const submit = () => {
    const translations = editor.read()
    if (!translations) return
    const starts = localToIso(startsAt)
    const ends = localToIso(endsAt)
    if (!starts || !ends) return editor.setError(t('campaigns.errors.dates'))
    const read = readTiers(tiers, decimals)
    if (!read.ok) return editor.setError(t(`campaigns.errors.${read.problem}`, { tier: read.index + 1 }))
    save.mutate({
      ...(campaign && { id: campaign.id }),
      translations,
      starts_at: starts,
      ends_at: ends,
      tiers: read.value,
    })
  }

  return (
    <EditorForm
      kind="campaign"
      title={campaign ? t('campaigns.edit') : t('campaigns.new')}
      editor={editor}
      disabled={disabled}
      pending={save.isPending}
      onClose={onClose}
      onSubmit={submit}
    >
      <RichBodyField kind="campaign" value={texts[lang].body} disabled={disabled} onChange={(b) => edit('body', b)} />
      <div className="admin-row">
        <label className="admin-field">
          <span>{t('campaigns.startsAt')}</span>
          <input
            type="datetime-local"
            data-testid="admin-campaign-starts"
            value={startsAt}
            disabled={disabled}
            onChange={(event) => setStartsAt(event.target.value)}
          />
        </label>
        <label className="admin-field">
          <span>{t('campaigns.endsAt')}</span>
          <input
            type="datetime-local"
            data-testid="admin-campaign-ends"
            value={endsAt}
            disabled={disabled}
            onChange={(event) => setEndsAt(event.target.value)}
          />
        </label>
      </div>
      <TiersEditor tiers={tiers} disabled={disabled} onChange={setTiers} />
      {!editable && <p className="muted-note">{t('campaigns.startedNote')}</p>}
    </EditorForm>
  )
}

interface TiersEditorProps {
  tiers: TierDraft[]
  disabled: boolean
  onChange: (tiers: TierDraft[]) => void
}

/** The tiers in order: each one's two minimums and its reward, with add and remove. */
function TiersEditor({ tiers, disabled, onChange }: TiersEditorProps) {
  const { t } = useTranslation('admin')
  const levels = useNodeLevels()
  const set = (index: number, change: Partial<TierDraft>) =>
    onChange(tiers.map((tier, i) => (i === index ? { ...tier, ...change } : tier)))
  return (
    <div className="admin-tiers" data-testid="admin-campaign-tiers">
      <p className="muted-note">{t('campaigns.tiersHint')}</p>
      {tiers.map((tier, index) => (
        // Position keys: a tier is its place in the order.
        // biome-ignore lint/suspicious/noArrayIndexKey: tiers have no identity but their order
        <fieldset key={index} className="admin-tier" data-testid="admin-campaign-tier">
          <legend>{t('campaigns.tier', { n: index + 1 })}</legend>
          <div className="admin-row">
            <label className="admin-field">
              <span>{t('campaigns.minDirect')}</span>
              <input
                inputMode="numeric"
                data-testid="admin-tier-direct"
                value={tier.direct}
                disabled={disabled}
                onChange={(event) => set(index, { direct: event.target.value })}
              />
            </label>
            <label className="admin-field">
              <span>{t('campaigns.minFuel')}</span>
              <input
                inputMode="decimal"
                data-testid="admin-tier-fuel"
                value={tier.fuel}
                disabled={disabled}
                onChange={(event) => set(index, { fuel: event.target.value })}
              />
            </label>
            <label className="admin-field">
              <span>{t('campaigns.reward')}</span>
              <select
                data-testid="admin-tier-kind"
                value={tier.kind}
                disabled={disabled}
                onChange={(event) => set(index, { kind: event.target.value as TierDraft['kind'] })}
              >
                <option value="node">{t('campaigns.rewardKinds.node')}</option>
                <option value="trip">{t('campaigns.rewardKinds.trip')}</option>
                <option value="text">{t('campaigns.rewardKinds.text')}</option>
              </select>
            </label>
            {tier.kind === 'node' && (
              <label className="admin-field">
                <span>{t('campaigns.level')}</span>
                <select
                  data-testid="admin-tier-level"
                  value={tier.level}
                  disabled={disabled}
                  onChange={(event) => set(index, { level: event.target.value })}
                >
                  <option value="">—</option>
                  {(levels.data ?? []).map((code) => (
                    <option key={code}>{code}</option>
                  ))}
                </select>
              </label>
            )}
            {tier.kind === 'trip' && (
              <label className="admin-field">
                <span>{t('campaigns.places')}</span>
                <input
                  inputMode="numeric"
                  data-testid="admin-tier-places"
                  value={tier.places}
                  disabled={disabled}
                  onChange={(event) => set(index, { places: event.target.value })}
                />
              </label>
            )}
            {tier.kind === 'text' && (
              <label className="admin-field">
                <span>{t('campaigns.rewardText')}</span>
                <input
                  data-testid="admin-tier-text"
                  value={tier.text}
                  maxLength={200}
                  disabled={disabled}
                  onChange={(event) => set(index, { text: event.target.value })}
                />
              </label>
            )}
          </div>
          <button
            type="button"
            className="admin-button"
            disabled={disabled || tiers.length === 1}
            onClick={() => onChange(tiers.filter((_, i) => i !== index))}
          >
            {t('campaigns.removeTier', { n: index + 1 })}
          </button>
        </fieldset>
      ))}
      <button
        type="button"
        className="admin-button"
        data-testid="admin-campaign-add-tier"
        disabled={disabled || tiers.length >= CAMPAIGN_MAX_TIERS}
        onClick={() => onChange([...tiers, { ...(tiers.at(-1) ?? defaultTiers([0])[0]), text: '' } as TierDraft])}
      >
        {t('campaigns.addTier')}
      </button>
    </div>
  )
}
