import { useTranslation } from 'react-i18next'
import { Facts } from '@/components/facts.tsx'
import { Modal } from '@/components/modal.tsx'
import { formatDateTime } from '@/lib/format.ts'
import { useFormat } from '@/lib/use-format.ts'
import { useMember } from '../api/get-member.ts'

/** TeamDetail: one direct member's figures, read from the server when opened. */
export function MemberDialog({ member, onClose }: { member: string | null; onClose: () => void }) {
  const { t, i18n } = useTranslation()
  const format = useFormat()
  const { data, isError } = useMember(member)
  const detail = data?.member
  const usdtUnits = { symbol: 'USDT', decimals: data?.decimals ?? 6 }
  const usdt = (units: string) => format.money(units, usdtUnits)
  const power = (units: string) => format.amount(units, usdtUnits, 'power')
  return (
    <Modal open={member !== null} title={t('team.detail.title')} onClose={onClose} testId="team-member-dialog">
      {detail ? (
        <>
          <p className="team-link">{detail.address}</p>
          <Facts
            facts={[
              { id: 'joined', label: t('team.members.joined'), value: formatDateTime(detail.joined_at, i18n.language) },
              { id: 'team-count', label: t('team.figures.teamCount'), value: detail.team_count },
              { id: 'direct-count', label: t('team.figures.directCount'), value: detail.direct_count },
              {
                id: 'performance',
                label: t('team.figures.personalPerformance'),
                value: usdt(detail.performance),
                testId: 'member-performance',
              },
              {
                id: 'team-performance',
                label: t('team.figures.teamPerformance'),
                value: usdt(detail.team_performance),
              },
              { id: 'personal-power', label: t('team.figures.personalPower'), value: power(detail.personal_power) },
              { id: 'team-power', label: t('team.figures.teamPower'), value: power(detail.team_power) },
            ]}
          />
        </>
      ) : (
        <p className="muted-note">{isError ? t('team.detail.unavailable') : t('common.loading')}</p>
      )}
    </Modal>
  )
}
