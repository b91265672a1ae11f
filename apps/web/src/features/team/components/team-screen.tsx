import { useTranslation } from 'react-i18next'
import { Page } from '../../../components/page.tsx'
import { SignedOut } from '../../../components/signed-out.tsx'
import { useSignedInAddress } from '../../../lib/session.ts'
import { InviteCard } from './invite-card.tsx'
import { MemberList } from './member-list.tsx'
import { TeamFigures } from './team-figures.tsx'
import './team.css'

/** /team: the user's team figures, their invite link and their direct members. */
export function TeamScreen() {
  const { t } = useTranslation()
  const address = useSignedInAddress()
  return (
    <Page title={t('screens.team')}>
      {address ? (
        <>
          <TeamFigures />
          <InviteCard address={address} />
          <MemberList />
        </>
      ) : (
        <SignedOut text={t('team.signedOut')} testId="team-signed-out" />
      )}
    </Page>
  )
}
