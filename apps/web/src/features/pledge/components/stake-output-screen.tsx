import { useTranslation } from 'react-i18next'
import { Link, useSearchParams } from 'react-router'
import { ExactTotal } from '@/components/exact-total.tsx'
import { Facts } from '@/components/facts.tsx'
import { LoadMore } from '@/components/load-more.tsx'
import { OutputTable } from '@/components/output-table.tsx'
import { EmptyState, Page } from '@/components/page.tsx'
import { SignedOut } from '@/components/signed-out.tsx'
import { ApiError } from '@/lib/api-client.ts'
import { flattenPages } from '@/lib/paging.ts'
import { useSignedInAddress } from '@/lib/session.ts'
import { useStakeRecords } from '../api/get-stake.ts'
import './pledge.css'
import { useFormat } from '@/lib/use-format.ts'

/** /pledge/detail?id=…: a stake's output-detail table (time, currency, amount, type), page by page. */
export function StakeOutputScreen() {
  const { t } = useTranslation()
  const address = useSignedInAddress()
  const [params] = useSearchParams()
  const id = params.get('id') ?? ''
  return (
    <Page title={t('screens.pledgeDetail')}>
      <Link className="back-link" to={`/pledge/orderDetail?id=${encodeURIComponent(id)}`} data-testid="order-back">
        {t('pledge.detail.back')}
      </Link>
      {address ? <StakeOutput id={id} /> : <SignedOut text={t('pledge.signedOut')} testId="pledge-signed-out" />}
    </Page>
  )
}

function StakeOutput({ id }: { id: string }) {
  const { t } = useTranslation(['ui', 'msg'])
  const format = useFormat()
  const { data, error, hasNextPage, fetchNextPage, isFetchingNextPage } = useStakeRecords(id)

  if (!/^[1-9][0-9]*$/.test(id) || error instanceof ApiError) return <EmptyState text={t('msg:pledge.notFound')} />
  const first = data?.pages[0]
  if (!data || !first)
    return <p className="muted-note">{error ? t('pledge.stakes.unavailable') : t('common.loading')}</p>
  const stake = data.pages.at(-1)?.detail ?? first.detail
  const records = flattenPages(data.pages.map((page) => page.records))
  const asset = { symbol: stake.coin, decimals: stake.decimals }
  const amount = (units: string) => format.money(units, asset, 'output')

  return (
    <>
      <section className="card pledge-card" data-testid="stake-output-summary">
        <Facts
          facts={[
            { id: 'amount', label: t('pledge.stakes.amount'), value: amount(stake.amount) },
            { id: 'total', label: t('pledge.order.totalOutput'), value: amount(stake.total_output) },
            {
              id: 'produced',
              label: t('pledge.stakes.produced'),
              // The sum of the records below: as they read, or exact on tap where rounding keeps them apart.
              value: (
                <ExactTotal
                  total={stake.produced}
                  rows={hasNextPage ? null : records.map((record) => record.amount)}
                  asset={asset}
                  kind="output"
                />
              ),
              testId: 'detail-produced',
            },
            {
              id: 'remaining',
              label: t('pledge.stakes.remaining'),
              value: amount(stake.remaining),
              testId: 'detail-remaining',
            },
          ]}
        />
      </section>
      <section className="pledge-section" aria-labelledby="stake-output-title">
        <h2 id="stake-output-title" className="section-title">
          {t('pledge.detail.records')}
        </h2>
        {records.length === 0 ? (
          <EmptyState text={t('pledge.detail.empty')} />
        ) : (
          <OutputTable records={records} testId="stake-output-table" />
        )}
        {hasNextPage && <LoadMore testId="records-more" loading={isFetchingNextPage} onLoad={() => fetchNextPage()} />}
      </section>
    </>
  )
}
