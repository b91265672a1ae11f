import type { Stake } from '@solpledge/contract/client'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { LoadMore } from '@/components/load-more.tsx'
import { EmptyState } from '@/components/page.tsx'
import { PositionCard, PositionList } from '@/components/position-card.tsx'
import { Skeleton } from '@/components/skeleton.tsx'
import { Tabs } from '@/components/tabs.tsx'
import type { FigureKind } from '@/lib/format.ts'
import { formatDay } from '@/lib/format.ts'
import { flattenPages } from '@/lib/paging.ts'
import { useFormat } from '@/lib/use-format.ts'
import { useStakes } from '../api/get-stakes.ts'
import { stakeStatus } from './stake-status.ts'

/** The user's stakes, mining or expired, newest first; each opens its order detail. */
export function MyStakes() {
  const { t } = useTranslation()
  const [status, setStatus] = useState<Stake['status']>('mining')
  return (
    <section className="pledge-section" aria-labelledby="my-stakes-title">
      <h2 id="my-stakes-title" className="section-title">
        {t('pledge.stakes.title')}
      </h2>
      <Tabs<Stake['status']>
        label={t('pledge.stakes.title')}
        testId="stakes-tab"
        value={status}
        onChange={setStatus}
        options={[
          { value: 'mining', label: t('pledge.stakes.mining') },
          { value: 'expired', label: t('pledge.stakes.expired') },
        ]}
      />
      <StakeList key={status} status={status} />
    </section>
  )
}

function StakeList({ status }: { status: Stake['status'] }) {
  const { t, i18n } = useTranslation()
  const format = useFormat()
  const { data, isError, hasNextPage, fetchNextPage, isFetchingNextPage } = useStakes(status)
  const stakes = data ? flattenPages(data.pages) : []
  const day = (value: string) => formatDay(value, i18n.resolvedLanguage)

  if (isError && !data) return <p className="muted-note">{t('pledge.stakes.unavailable')}</p>
  if (!data) return <Skeleton rows={2} height={120} />
  if (stakes.length === 0) return <EmptyState text={t(`pledge.stakes.empty.${status}`)} />
  return (
    <>
      <PositionList testId="stake-list">
        {stakes.map((stake) => {
          const asset = { symbol: stake.coin, decimals: stake.decimals }
          const amount = (units: string, kind?: FigureKind) => format.money(units, asset, kind)
          return (
            <PositionCard
              key={stake.id}
              id={stake.id}
              testId="stake-row"
              to={`/pledge/orderDetail?id=${stake.id}`}
              title={amount(stake.amount)}
              status={stakeStatus(t, stake.status)}
              facts={[
                { id: 'amount', label: t('pledge.stakes.amount'), value: amount(stake.amount), testId: 'stake-amount' },
                { id: 'start', label: t('pledge.stakes.start'), value: day(stake.start_day) },
                { id: 'end', label: t('pledge.stakes.end'), value: day(stake.end_day) },
                {
                  id: 'produced',
                  label: t('pledge.stakes.produced'),
                  value: amount(stake.produced, 'output'),
                  testId: 'stake-produced',
                },
                {
                  id: 'remaining',
                  label: t('pledge.stakes.remaining'),
                  value: amount(stake.remaining, 'output'),
                  testId: 'stake-remaining',
                },
              ]}
            />
          )
        })}
      </PositionList>
      {hasNextPage && <LoadMore testId="stakes-more" loading={isFetchingNextPage} onLoad={() => fetchNextPage()} />}
    </>
  )
}
