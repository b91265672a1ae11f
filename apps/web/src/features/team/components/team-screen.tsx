import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { Page } from '@/components/page.tsx'
import { SignedOut } from '@/components/signed-out.tsx'
import { useSignedInAddress } from '@/lib/session.ts'
import { InviteCard } from './invite-card.tsx'
import { MemberList } from './member-list.tsx'
import { TeamFigures } from './team-figures.tsx'
import './team.css'

/** /team: the user's team figures, the way to the monthly ranking, their invite link and their direct members. */
export function TeamScreen() {
  const { t } = useTranslation()
  const address = useSignedInAddress()
  return (
    <Page title={t('screens.team')}>
      {address ? (
        <>
          <TeamFigures />
          <Link to="/rank" className="card team-rank-link" data-testid="team-rank-link">
            <span className="team-rank-link-title">{t('team.rankLink.title')}</span>
            <span className="muted-note">{t('team.rankLink.text')}</span>
          </Link>
          <InviteCard address={address} />
          <MemberList />
        </>
      ) : (
        <SignedOut text={t('team.signedOut')} testId="team-signed-out" />
      )}
    </Page>
  )
}
