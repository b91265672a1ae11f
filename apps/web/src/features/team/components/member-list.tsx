import type { TeamMember } from '@solpledge/contract/client'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { LoadMore } from '@/components/load-more.tsx'
import { EmptyState } from '@/components/page.tsx'
import { formatDateTime } from '@/lib/format.ts'
import { flattenPages } from '@/lib/paging.ts'
import { useFormat } from '@/lib/use-format.ts'
import { useMembers } from '../api/get-members.ts'
import { MemberDialog } from './member-dialog.tsx'

/** The direct members, newest first, ten at a time; each opens its detail. */
export function MemberList() {
  const { t, i18n } = useTranslation()
  const format = useFormat()
  const { data, isError, hasNextPage, fetchNextPage, isFetchingNextPage } = useMembers()
  const [open, setOpen] = useState<string | null>(null)
  const members: TeamMember[] = data ? flattenPages(data.pages) : []
  const decimals = data?.pages[0]?.decimals ?? 6

  return (
    <section className="team-section" aria-labelledby="team-members-title">
      <h2 id="team-members-title" className="section-title">
        {t('team.members.title')}
      </h2>
      {!data ? (
        isError ? (
          <EmptyState text={t('team.members.unavailable')} />
        ) : (
          <p className="muted-note">{t('common.loading')}</p>
        )
      ) : members.length === 0 ? (
        <EmptyState text={t('team.members.empty')} />
      ) : (
        <>
          <ul className="team-members" data-testid="team-members">
            {members.map((member) => (
              <li key={member.id}>
                <button
                  type="button"
                  className="card team-member"
                  data-testid="team-member"
                  onClick={() => setOpen(member.address)}
                >
                  <span className="team-address" data-testid="team-member-address">
                    {member.address}
                  </span>
                  <span className="team-member-facts">
                    <span>
                      {t('team.members.joined')}{' '}
                      <time dateTime={member.joined_at}>{formatDateTime(member.joined_at, i18n.language)}</time>
                    </span>
                    <span data-testid="team-member-performance">
                      {t('team.members.performance')} {format.money(member.performance, { symbol: 'USDT', decimals })}
                    </span>
                    <span data-testid="team-member-size">
                      {t('team.members.teamSize', { count: member.team_count })}
                    </span>
                  </span>
                </button>
              </li>
            ))}
          </ul>
          {hasNextPage && (
            <LoadMore testId="team-more" loading={isFetchingNextPage} onLoad={() => void fetchNextPage()} />
          )}
        </>
      )}
      <MemberDialog member={open} onClose={() => setOpen(null)} />
    </section>
  )
}
