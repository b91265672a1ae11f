import type { FinanceDeposit } from '@solpledge/contract/client'
import type { TFunction } from 'i18next'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link, useSearchParams } from 'react-router'
import { ExactTotal } from '@/components/exact-total.tsx'
import { type Fact, Facts } from '@/components/facts.tsx'
import { LoadMore } from '@/components/load-more.tsx'
import { OutputTable } from '@/components/output-table.tsx'
import { EmptyState, Page } from '@/components/page.tsx'
import { PrimaryButton } from '@/components/primary-button.tsx'
import { ReviewSheet } from '@/components/review-sheet.tsx'
import { SignedOut } from '@/components/signed-out.tsx'
import { ApiError } from '@/lib/api-client.ts'
import { formatAmountOf, formatBps, formatDateTime, formatDay, formatMoney, formatMultiple } from '@/lib/format.ts'
import { flattenPages } from '@/lib/paging.ts'
import { useSignedInAddress } from '@/lib/session.ts'
import { useDeposit } from '../api/get-deposit.ts'
import { useRedeemDeposit } from '../api/redeem-deposit.ts'
import { depositStatus } from './deposit-status.ts'
import './finance.css'

/** /finance/detail?id=…: one deposit, its output records and, once matured, its redemption to the asset balance. */
export function DepositDetailScreen() {
  const { t } = useTranslation()
  const address = useSignedInAddress()
  return (
    <Page title={t('screens.financeDetail')}>
      <Link className="back-link" to="/finance" data-testid="finance-back">
        {t('finance.detail.back')}
      </Link>
      {address ? <DepositDetail /> : <SignedOut text={t('finance.signedOut')} testId="finance-signed-out" />}
    </Page>
  )
}

function DepositDetail() {
  const { t, i18n } = useTranslation(['ui', 'msg'])
  const [params] = useSearchParams()
  const id = params.get('id') ?? ''
  const { data, error, hasNextPage, fetchNextPage, isFetchingNextPage } = useDeposit(id)

  if (!/^[1-9][0-9]*$/.test(id) || error instanceof ApiError) return <EmptyState text={t('msg:finance.notFound')} />
  const first = data?.pages[0]
  if (!data || !first)
    return <p className="muted-note">{error ? t('finance.deposits.unavailable') : t('common.loading')}</p>
  const deposit = first.detail
  const records = flattenPages(data.pages.map((page) => page.records))
  const status = depositStatus(t, deposit)

  return (
    <>
      <section
        className="card finance-card"
        data-testid="deposit-detail"
        data-id={deposit.id}
        data-status={status.value}
      >
        <header className="section-head">
          <h2>{t('finance.detail.title', { id: deposit.id })}</h2>
          <span className={`badge badge-${status.tone}`} data-testid="deposit-detail-status">
            {status.label}
          </span>
        </header>
        <Facts
          facts={depositFacts(t, deposit, i18n.resolvedLanguage, hasNextPage ? null : records.map((r) => r.amount))}
        />
        <RedeemButton deposit={deposit} />
      </section>
      <section className="finance-section" aria-labelledby="deposit-output-title">
        <h2 id="deposit-output-title" className="section-title">
          {t('finance.detail.records')}
        </h2>
        {records.length === 0 ? (
          <EmptyState text={t('finance.detail.empty')} />
        ) : (
          <OutputTable records={records} testId="deposit-output-table" />
        )}
        {hasNextPage && <LoadMore testId="records-more" loading={isFetchingNextPage} onLoad={() => fetchNextPage()} />}
      </section>
    </>
  )
}

/**
 * Redeem when matured and not yet redeemed, after a review of what goes back to the balance; before maturity it is
 * disabled and says on which day it can be.
 */
function RedeemButton({ deposit }: { deposit: FinanceDeposit }) {
  const { t, i18n } = useTranslation()
  const [review, setReview] = useState(false)
  const redeem = useRedeemDeposit()
  const language = i18n.resolvedLanguage
  const amount = (units: string) =>
    formatMoney(units, { symbol: deposit.coin, decimals: deposit.decimals }, language, 'exact')
  if (deposit.redeemed_at)
    return (
      <PrimaryButton data-testid="finance-redeem" disabled>
        {t('finance.detail.redeemedAt', { time: formatDateTime(deposit.redeemed_at, language) })}
      </PrimaryButton>
    )
  if (!deposit.redeemable)
    return (
      <PrimaryButton data-testid="finance-redeem" disabled>
        {t('finance.detail.redeemableOn', { day: formatDay(deposit.end_day, language) })}
      </PrimaryButton>
    )
  return (
    <>
      <PrimaryButton data-testid="finance-redeem" disabled={redeem.isPending} onClick={() => setReview(true)}>
        {t('finance.detail.redeem')}
      </PrimaryButton>
      <ReviewSheet
        open={review}
        title={t('review.redeem.title', { coin: deposit.coin })}
        rows={[
          {
            id: 'back',
            label: t('review.redeem.back'),
            value: amount(deposit.amount),
            testId: 'review-receive',
          },
          { id: 'output', label: t('finance.deposits.output'), value: amount(deposit.output), testId: 'review-output' },
        ]}
        pending={redeem.isPending}
        pendingLabel={t('finance.detail.redeeming')}
        onConfirm={() => redeem.mutate(deposit.id, { onSettled: () => setReview(false) })}
        onCancel={() => setReview(false)}
      />
    </>
  )
}

/** The deposit's figures; `records`: the amounts of all its output records (null while only some are loaded). */
function depositFacts(
  t: TFunction<'ui'>,
  deposit: FinanceDeposit,
  language: string | undefined,
  records: readonly string[] | null,
): Fact[] {
  const asset = { symbol: deposit.coin, decimals: deposit.decimals }
  const amount = (units: string) => <span data-exact>{formatMoney(units, asset, language, 'exact')}</span>
  return [
    { id: 'amount', label: t('finance.deposits.amount'), value: amount(deposit.amount), testId: 'detail-amount' },
    { id: 'period', label: t('finance.deposits.period'), value: t('finance.products.days', { count: deposit.days }) },
    { id: 'multiple', label: t('finance.deposits.multiple'), value: formatMultiple(deposit.power_bps, language) },
    { id: 'power', label: t('finance.detail.power'), value: formatAmountOf(deposit.power, asset, language, 'power') },
    { id: 'rate', label: t('finance.detail.rate'), value: formatBps(deposit.output_bps, language) },
    { id: 'total', label: t('finance.detail.totalOutput'), value: amount(deposit.total_output) },
    {
      id: 'output',
      label: t('finance.deposits.output'),
      // The sum of the output table's rows: at their precision, exact on tap where rounding keeps them apart.
      value: <ExactTotal total={deposit.output} rows={records} asset={asset} kind="output" />,
      testId: 'detail-output',
    },
    { id: 'start', label: t('finance.detail.start'), value: formatDay(deposit.start_day, language) },
    { id: 'end', label: t('finance.detail.end'), value: formatDay(deposit.end_day, language), testId: 'detail-end' },
    { id: 'created', label: t('finance.detail.created'), value: formatDateTime(deposit.created_at, language) },
  ]
}
