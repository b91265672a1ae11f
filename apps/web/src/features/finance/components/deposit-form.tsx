import { financeReturns } from '@solpledge/contract/client'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { AmountField } from '@/components/amount-input.tsx'
import { PrimaryButton } from '@/components/primary-button.tsx'
import { HelpLines, ReturnsCalculator, TermOptions } from '@/components/returns.tsx'
import { ReviewSheet } from '@/components/review-sheet.tsx'
import { type FigureKind, formatDay } from '@/lib/format.ts'
import { noticeText } from '@/lib/notice.ts'
import { useFormat } from '@/lib/use-format.ts'
import { useReviewedAmount } from '@/lib/use-reviewed-amount.ts'
import { findAsset, useUserWallet } from '@/lib/user-wallet.ts'
import { type FinanceProducts, useFinanceProducts } from '../api/get-products.ts'
import { useMakeDeposit } from '../api/make-deposit.ts'
import { validateDeposit } from '../utils/validate-deposit.ts'

/** The finance products (period, power multiple, output) and, signed in, a deposit from the asset balance. */
export function DepositForm({ signedIn }: { signedIn: boolean }) {
  const { t } = useTranslation()
  const products = useFinanceProducts()
  if (!products.data)
    return (
      <section className="card finance-card">
        {products.isError ? (
          <>
            <p className="muted-note">{t('finance.products.unavailable')}</p>
            <button type="button" className="finance-retry" onClick={() => products.refetch()}>
              {t('common.retry')}
            </button>
          </>
        ) : (
          <p className="muted-note">{t('common.loading')}</p>
        )}
      </section>
    )
  return <Products products={products.data} signedIn={signedIn} />
}

/** The amount the product cards show their figures for: 100 of the coin. */
const REFERENCE_WHOLE = 100n

function Products({ products, signedIn }: { products: FinanceProducts; signedIn: boolean }) {
  const { t } = useTranslation()
  const format = useFormat()
  const asset = { symbol: products.coin, decimals: products.decimals }
  const reference = REFERENCE_WHOLE * 10n ** BigInt(products.decimals)
  const [days, setDays] = useState<number | null>(products.list[0]?.days ?? null)
  const product = products.list.find((item) => item.days === days) ?? null
  return (
    <section className="card finance-card" data-testid="finance-products" aria-labelledby="finance-products-title">
      <h2 id="finance-products-title" className="section-title">
        {t('finance.products.title', { coin: products.coin })}
      </h2>
      <TermOptions
        legend={t('finance.products.period')}
        name="finance-period"
        terms={products.list}
        value={days}
        onChange={setDays}
        title={(item) => t('finance.products.days', { count: item.days })}
        rates={(item) =>
          t('finance.products.rates', {
            rate: format.percent(item.output_bps),
            multiple: format.multiple(item.power_bps),
          })
        }
        returns={(item) => financeReturns(reference, item, products.decimals)}
        asset={asset}
      />
      <p className="returns-note" data-testid="finance-reference">
        {t('finance.products.reference', { amount: format.money(reference, asset) })}
      </p>
      <HelpLines
        lines={[
          { id: 'output', text: t('finance.products.outputHelp') },
          { id: 'power', text: t('finance.products.powerHelp') },
        ]}
      />
      {signedIn && product && <AmountForm products={products} product={product} />}
    </section>
  )
}

interface AmountFormProps {
  products: FinanceProducts
  product: FinanceProducts['list'][number]
}

/** The UTC day (YYYY-MM-DD) `days` after today: the maturity of a deposit made now (the server counts in UTC days). */
const utcDayAfter = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10)

/**
 * The amount to deposit into the chosen product, from the available balance; reviewed (term, rate, expected interest,
 * maturity) before it moves.
 */
function AmountForm({ products, product }: AmountFormProps) {
  const { t, i18n } = useTranslation()
  const format = useFormat()
  const { coin, decimals } = products
  const { text, setText, review, setReview, reset, submit } = useReviewedAmount()
  const { data: assets } = useUserWallet()
  const asset = findAsset(assets, coin)
  const available = asset ? BigInt(asset.available) : assets ? 0n : undefined
  const deposit = useMakeDeposit(reset)
  const pending = deposit.isPending

  const typed = validateDeposit(text, decimals, undefined)
  const estimate = typed.ok && typed.value > 0n ? financeReturns(typed.value, product, decimals) : null
  // More than the balance holds (the form's own check): said at once, and the form cannot be sent until it fits.
  const check = validateDeposit(text, decimals, available)
  const blocked =
    !check.ok && 'key' in check.notice && check.notice.key === 'common.insufficientBalance' ? check.notice : null
  const overAvailable = blocked !== null
  const amount = (units: bigint, kind?: FigureKind) => format.money(units, { symbol: coin, decimals }, kind)
  const reviewed = review === null ? null : { amount: review, ...financeReturns(review, product, decimals) }

  return (
    <form
      className="amount-form finance-form"
      onSubmit={submit(() => (pending ? undefined : validateDeposit(text, decimals, available)))}
      noValidate
    >
      <AmountField
        name="finance"
        label={t('finance.form.amount')}
        placeholder={t('finance.form.placeholder')}
        maxLabel={t('finance.form.max')}
        unit={coin}
        decimals={decimals}
        value={text}
        onChange={setText}
        max={available}
        disabled={pending}
        hint={{
          text: t('finance.form.available', { amount: available === undefined ? '…' : amount(available) }),
          testId: 'finance-available',
        }}
        blocked={blocked && noticeText(blocked)}
      />
      <ReturnsCalculator
        returns={estimate}
        asset={{ symbol: coin, decimals }}
        testId="finance-estimate"
        before={estimate ? [{ id: 'power', label: t('finance.form.power'), value: format.power(estimate.power) }] : []}
      />
      <p className="amount-form-note">{t('finance.form.note', { count: product.days })}</p>
      <PrimaryButton
        type="submit"
        data-testid="finance-submit"
        disabled={pending || overAvailable}
        aria-describedby={overAvailable ? 'finance-blocked' : undefined}
      >
        {t('finance.form.submit')}
      </PrimaryButton>
      {reviewed && (
        <ReviewSheet
          open
          title={t('review.deposit.title', { coin })}
          rows={[
            { id: 'amount', label: t('review.amount'), value: amount(reviewed.amount), testId: 'review-amount' },
            {
              id: 'term',
              label: t('review.deposit.term'),
              value: t('finance.products.days', { count: product.days }),
              testId: 'review-period',
            },
            { id: 'rate', label: t('review.deposit.rate'), value: format.percent(product.output_bps) },
            {
              id: 'interest',
              label: t('review.deposit.interest'),
              value: amount(reviewed.total, 'output'),
              testId: 'review-output',
            },
            { id: 'daily', label: t('returns.perDay'), value: amount(reviewed.daily, 'output') },
            { id: 'apr', label: t('returns.apr'), value: format.rate(reviewed.apr), testId: 'review-apr' },
            {
              id: 'maturity',
              label: t('review.deposit.maturity'),
              value: formatDay(utcDayAfter(product.days), i18n.language),
              testId: 'review-maturity',
            },
            {
              id: 'power',
              label: t('finance.form.power'),
              value: format.power(reviewed.power),
            },
          ]}
          note={t('finance.form.note', { count: product.days })}
          pending={pending}
          pendingLabel={t('finance.form.submitting')}
          onConfirm={() => deposit.mutate({ amount: reviewed.amount, days: product.days })}
          onCancel={() => setReview(null)}
        />
      )}
    </form>
  )
}
