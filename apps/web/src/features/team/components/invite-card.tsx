import { useTranslation } from 'react-i18next'
import { PrimaryButton } from '@/components/primary-button.tsx'
import { copyShortcut, copyText } from '@/lib/copy-text.ts'
import { toast } from '@/lib/toast.ts'
import { inviteLink } from '../utils/invite-link.ts'

/** The user's invite link (their address as the code) with a copy button. */
export function InviteCard({ address }: { address: string }) {
  const { t } = useTranslation(['ui', 'msg'])
  const link = inviteLink(window.location.origin, address)
  const copy = async () => {
    const copied = await copyText(link, t('msg:common.copyPrompt', { shortcut: copyShortcut() }))
    if (copied) toast.success(t('msg:common.copySuccess'))
    else toast.error(t('msg:common.copyFailed'))
  }
  return (
    <section className="card team-card" aria-labelledby="team-invite-title">
      <h2 id="team-invite-title" className="section-title">
        {t('team.invite.title')}
      </h2>
      <p className="muted-note">{t('team.invite.text')}</p>
      <p className="team-link" data-testid="invite-link">
        {link}
      </p>
      <PrimaryButton data-testid="copy-invite" onClick={() => void copy()}>
        {t('team.invite.copy')}
      </PrimaryButton>
    </section>
  )
}
