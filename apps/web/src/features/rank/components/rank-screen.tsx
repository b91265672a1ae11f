import type { RankType } from '@solpledge/contract/client'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { BackLink } from '@/components/back-link.tsx'
import { EmptyState, Page } from '@/components/page.tsx'
import { SignedOut } from '@/components/signed-out.tsx'
import { Tabs } from '@/components/tabs.tsx'
import { formatDateTime } from '@/lib/format.ts'
import { useSignedInAddress } from '@/lib/session.ts'
import { useRanking } from '../api/get-ranking.ts'
import './rank.css'
import { useFormat } from '@/lib/use-format.ts'

/** /rank: this month's top 30 by new power of direct members or of the whole team, and the user's own place. */
export function RankScreen() {
  const { t } = useTranslation()
  const address = useSignedInAddress()
  const [type, setType] = useState<RankType>('direct')
  return (
    <Page title={t('screens.rank')}>
      <BackLink to="/team" />
      <Tabs<RankType>
        label={t('screens.rank')}
        testId="rank-tab"
        value={type}
        onChange={setType}
        options={[
          { value: 'direct', label: t('rank.tabs.direct') },
          { value: 'team', label: t('rank.tabs.team') },
        ]}
      />
      {address ? <Board key={type} type={type} /> : <SignedOut text={t('rank.signedOut')} testId="rank-signed-out" />}
    </Page>
  )
}

function Board({ type }: { type: RankType }) {
  const { t, i18n } = useTranslation()
  const format = useFormat()
  const { data, isError } = useRanking(type)
  if (!data)
    return isError ? <EmptyState text={t('rank.unavailable')} /> : <p className="muted-note">{t('common.loading')}</p>
  const power = (units: string) => format.amount(units, { symbol: 'USDT', decimals: data.decimals }, 'power')
  return (
    <div className="rank-board" data-testid={`rank-board-${type}`}>
      <p className="muted-note" data-testid="rank-next-update">
        {t('rank.month', { month: data.month })}
        {data.computed_at && (
          <>
            {' · '}
            <span data-testid="rank-updated-at">
              {t('rank.updatedAt', { time: formatDateTime(data.computed_at, i18n.language) })}
            </span>
          </>
        )}
        {' · '}
        {t('rank.nextUpdate', { time: formatDateTime(data.next_update_at, i18n.language) })}
      </p>
      <div className="card rank-mine" data-testid="rank-mine">
        <span className="muted-note">{t('rank.mine')}</span>
        <span className="rank-mine-place" data-testid="rank-mine-rank">
          {data.mine.rank === null ? t('rank.notRanked') : `#${data.mine.rank}`}
        </span>
        {/* Unranked means no new power this month: a 0 beside "Not ranked" would only repeat it. */}
        {data.mine.rank !== null && <span data-testid="rank-mine-power">{power(data.mine.power)}</span>}
      </div>
      {data.list.length === 0 ? (
        <EmptyState text={t('rank.empty')} />
      ) : (
        <ol className="rank-list" data-testid="rank-list">
          <li className="rank-row rank-head" aria-hidden="true">
            <span>{t('rank.columns.rank')}</span>
            <span>{t('rank.columns.address')}</span>
            <span>{t('rank.columns.power')}</span>
          </li>
          {data.list.map((row) => (
            <li key={row.rank} className="rank-row" data-testid="rank-row">
              <span className={row.rank <= 3 ? 'rank-place rank-top' : 'rank-place'}>{row.rank}</span>
              <span className="rank-address">{row.address}</span>
              <span className="rank-power" data-testid="rank-row-power">
                {power(row.power)}
              </span>
            </li>
          ))}
        </ol>
      )}
    </div>
  )
}
