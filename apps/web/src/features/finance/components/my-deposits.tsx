import type { FinanceDeposit } from '@solpledge/contract/client'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { LoadMore } from '@/components/load-more.tsx'
import { EmptyState } from '@/components/page.tsx'
import { PositionCard, PositionList } from '@/components/position-card.tsx'
import { Tabs } from '@/components/tabs.tsx'
import type { FigureKind } from '@/lib/format.ts'
import { flattenPages } from '@/lib/paging.ts'
import { useFormat } from '@/lib/use-format.ts'
import { useDeposits } from '../api/get-deposits.ts'
import { depositStatus } from './deposit-status.ts'

/** The user's deposits, active or expired, newest first; each opens its detail. */
export function MyDeposits() {
  const { t } = useTranslation()
  const [status, setStatus] = useState<FinanceDeposit['status']>('active')
  return (
    <section className="finance-section" aria-labelledby="my-deposits-title">
      <h2 id="my-deposits-title" className="section-title">
        {t('finance.deposits.title')}
      </h2>
      <Tabs<FinanceDeposit['status']>
        label={t('finance.deposits.title')}
        testId="deposits-tab"
        value={status}
        onChange={setStatus}
        options={[
          { value: 'active', label: t('finance.status.active') },
          { value: 'expired', label: t('finance.status.expired') },
        ]}
      />
      <DepositList key={status} status={status} />
    </section>
  )
}

function DepositList({ status }: { status: FinanceDeposit['status'] }) {
  const { t } = useTranslation()
  const format = useFormat()
  const { data, isError, hasNextPage, fetchNextPage, isFetchingNextPage } = useDeposits(status)
  const deposits = data ? flattenPages(data.pages) : []

  if (!data) return <p className="muted-note">{isError ? t('finance.deposits.unavailable') : t('common.loading')}</p>
  if (deposits.length === 0) return <EmptyState text={t(`finance.deposits.empty.${status}`)} />
  return (
    <>
      <PositionList testId="deposit-list">
        {deposits.map((deposit) => {
          const asset = { symbol: deposit.coin, decimals: deposit.decimals }
          const amount = (units: string, kind?: FigureKind) => format.money(units, asset, kind)
          return (
            <PositionCard
              key={deposit.id}
              id={deposit.id}
              testId="deposit-row"
              to={`/finance/detail?id=${deposit.id}`}
              title={amount(deposit.amount)}
              status={depositStatus(t, deposit)}
              facts={[
                {
                  id: 'period',
                  label: t('finance.deposits.period'),
                  value: t('finance.products.days', { count: deposit.days }),
                },
                { id: 'multiple', label: t('finance.deposits.multiple'), value: format.multiple(deposit.power_bps) },
                {
                  id: 'amount',
                  label: t('finance.deposits.amount'),
                  value: amount(deposit.amount),
                  testId: 'deposit-amount',
                },
                {
                  id: 'output',
                  label: t('finance.deposits.output'),
                  value: `${amount(deposit.output, 'output')} / ${amount(deposit.total_output, 'output')}`,
                  testId: 'deposit-output',
                },
              ]}
            />
          )
        })}
      </PositionList>
      {hasNextPage && <LoadMore testId="deposits-more" loading={isFetchingNextPage} onLoad={() => fetchNextPage()} />}
    </>
  )
}
