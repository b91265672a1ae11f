import { type PledgeConfig, parseAmount, stakeReturns, toUsdt, worthOf } from '@solpledge/contract/client'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { AmountField } from '@/components/amount-input.tsx'
import { Facts } from '@/components/facts.tsx'
import { LoadingOverlay } from '@/components/loading-overlay.tsx'
import { PrimaryButton } from '@/components/primary-button.tsx'
import { HelpLines, ReturnsCalculator, TermOptions } from '@/components/returns.tsx'
import { ReviewSheet } from '@/components/review-sheet.tsx'
import { Skeleton } from '@/components/skeleton.tsx'
import { Tabs } from '@/components/tabs.tsx'
import { useTokenBalances } from '@/lib/chain-balances.ts'
import { type FigureKind, USDT } from '@/lib/format.ts'
import { noticeText } from '@/lib/notice.ts'
import { usePayment } from '@/lib/payment/use-payment.ts'
import { useFormat } from '@/lib/use-format.ts'
import { useReviewedAmount } from '@/lib/use-reviewed-amount.ts'
import { findAsset, useUserWallet } from '@/lib/user-wallet.ts'
import { usePledgeConfig } from '../api/get-pledge-config.ts'
import { useStakeFromBalance } from '../api/stake-from-balance.ts'
import { validateStake } from '../utils/validate-stake.ts'

type PayWith = 'balance' | 'chain'

/**
 * The staking configuration (price, minimum, periods) and, signed in, the stake form: an amount of {product}, paid
 * from the asset balance or on chain from the wallet.
 */
export function StakeForm({ signedIn }: { signedIn: boolean }) {
  const { t } = useTranslation(['ui', 'msg'])
  const config = usePledgeConfig()

  if (config.isError && !config.data)
    return (
      <section className="card pledge-card" data-testid="pledge-config-error">
        <p className="pledge-error">{t('msg:common.failedConfig')}</p>
        <button type="button" className="pledge-retry" onClick={() => config.refetch()}>
          {t('common.retry')}
        </button>
      </section>
    )
  if (!config.data)
    return (
      <section className="card pledge-card">
        <Skeleton rows={4} height={40} />
      </section>
    )
  return <ConfiguredStakeForm config={config.data} signedIn={signedIn} />
}

function ConfiguredStakeForm({ config, signedIn }: { config: PledgeConfig; signedIn: boolean }) {
  const { t } = useTranslation()
  const format = useFormat()
  const product = config.symbol
  const [days, setDays] = useState<number | null>(config.periods[0]?.days ?? null)
  const period = config.periods.find((item) => item.days === days) ?? null
  // The cards' figures are for the minimum stake (or 100 USDT worth without a minimum): an amount anyone may stake.
  const reference =
    BigInt(config.min_amount) > 0n
      ? BigInt(config.min_amount)
      : worthOf(100n * 10n ** 6n, config.decimals, config.price)

  return (
    <section className="card pledge-card" data-testid="pledge-config" aria-labelledby="pledge-config-title">
      <h2 id="pledge-config-title" className="section-title">
        {t('pledge.config.title', { product })}
      </h2>
      <Facts
        facts={[
          {
            id: 'price',
            label: t('pledge.config.price'),
            value: (
              <span data-price>
                {t('pledge.config.priceValue', { product, price: format.amount(config.price, USDT, 'price') })}
              </span>
            ),
            testId: 'pledge-price',
          },
          {
            id: 'minimum',
            label: t('pledge.config.minimum'),
            value: t('pledge.config.minimumValue', {
              product,
              amount: format.amount(config.min_amount, config, 'minimum'),
              usdt: format.amount(config.min_u, USDT, 'minimum'),
            }),
            testId: 'pledge-minimum',
          },
        ]}
      />
      <TermOptions
        legend={t('pledge.config.periods')}
        name="pledge-period"
        terms={config.periods}
        value={days}
        onChange={setDays}
        title={(item) => t('pledge.config.days', { count: item.days })}
        rates={(item) =>
          t('pledge.config.multiples', {
            output: format.multiple(item.output_bps),
            power: format.multiple(item.power_bps),
          })
        }
        returns={(item) => stakeReturns(reference, config, item)}
        asset={config}
      />
      <p className="returns-note" data-testid="pledge-reference">
        {t('pledge.config.reference', {
          amount: format.money(reference, config),
          usdt: format.usdt(toUsdt(reference, config.decimals, BigInt(config.price))),
        })}
      </p>
      <HelpLines
        lines={[
          { id: 'output', text: t('pledge.config.outputHelp') },
          { id: 'power', text: t('pledge.config.powerHelp') },
        ]}
      />
      {signedIn && period && <AmountForm config={config} days={period.days} />}
    </section>
  )
}

/** The amount to stake for the chosen period and the way to pay it; reviewed (amount, period, output) before it moves. */
function AmountForm({ config, days }: { config: PledgeConfig; days: number }) {
  const { t } = useTranslation()
  const format = useFormat()
  const product = config.symbol
  const { text, setText, review, setReview, reset, submit } = useReviewedAmount()
  const [payWith, setPayWith] = useState<PayWith>('balance')
  const { data: assets } = useUserWallet()
  const asset = findAsset(assets, product)
  const mint = asset?.mint ?? null
  const tokens = useTokenBalances(mint ? [mint] : [])

  // What each way of paying can spend, in base units; undefined while unknown.
  const available = asset ? BigInt(asset.available) : assets ? 0n : undefined
  const walletHeld = mint ? tokens.data?.[mint] : undefined
  const wallet = walletHeld === null ? 0n : walletHeld
  const spendable = payWith === 'balance' ? available : wallet

  const fromBalance = useStakeFromBalance(reset)
  const chain = usePayment({ onDone: reset })
  const pending = fromBalance.isPending || chain.pending

  const confirm = (units: bigint) => {
    if (payWith === 'balance') fromBalance.mutate({ amount: units, days })
    else
      chain.pay({
        intent: { purpose: 'stake', amount: units.toString(), days },
        insufficientKey: 'pledge.exceedsBalance',
      })
  }

  const period = config.periods.find((item) => item.days === days)
  const typed = parseAmount(text, config.decimals)
  const estimate = typed.ok && typed.value > 0n && period ? stakeReturns(typed.value, config, period) : null
  // More than the chosen way of paying holds (the form's own check, after the minimum): said at once, and the form
  // cannot be sent until the amount fits.
  const check = validateStake(text, config, spendable)
  const blocked =
    !check.ok && 'key' in check.notice && check.notice.key === 'pledge.exceedsBalance' ? check.notice : null
  const overSpendable = blocked !== null
  const amount = (units: bigint, kind?: FigureKind) => format.money(units, config, kind)
  const reviewed = review !== null && period ? stakeReturns(review, config, period) : null

  return (
    <form
      className="amount-form pledge-form"
      onSubmit={submit(() => (pending ? undefined : validateStake(text, config, spendable)))}
      noValidate
    >
      <Tabs<PayWith>
        label={t('pledge.form.payWith')}
        testId="pledge-pay"
        value={payWith}
        onChange={setPayWith}
        options={[
          { value: 'balance', label: t('pledge.form.payBalance') },
          { value: 'chain', label: t('pledge.form.payChain') },
        ]}
      />
      <AmountField
        name="pledge"
        label={t('pledge.form.amount')}
        placeholder={t('pledge.form.placeholder', { product })}
        maxLabel={t('pledge.form.max')}
        unit={product}
        decimals={config.decimals}
        value={text}
        onChange={setText}
        max={spendable}
        disabled={pending}
        hint={{
          text:
            payWith === 'balance'
              ? t('pledge.form.available', { amount: available === undefined ? '…' : amount(available) })
              : wallet === undefined
                ? t('pledge.form.walletUnknown')
                : t('pledge.form.wallet', { amount: amount(wallet) }),
          testId: 'pledge-spendable',
        }}
        blocked={blocked && noticeText(blocked)}
      />
      <ReturnsCalculator
        returns={estimate}
        asset={config}
        testId="pledge-estimate"
        before={
          estimate
            ? [
                { id: 'value', label: t('pledge.form.value'), value: format.usdt(estimate.usdtValue) },
                { id: 'power', label: t('pledge.form.power'), value: format.power(estimate.power) },
              ]
            : []
        }
      />
      <p className="amount-form-note">
        {payWith === 'balance' ? t('pledge.form.balanceNote') : t('pledge.form.chainNote', { product })}
      </p>
      <PrimaryButton
        type="submit"
        data-testid="pledge-submit"
        disabled={pending || overSpendable}
        aria-describedby={overSpendable ? 'pledge-blocked' : undefined}
      >
        {t('pledge.form.submit')}
      </PrimaryButton>
      {chain.step && <LoadingOverlay text={t(`payment.steps.${chain.step}`)} />}
      {review !== null && reviewed && (
        <ReviewSheet
          open
          title={t('review.stake.title', { product })}
          rows={[
            { id: 'amount', label: t('review.stake.locked'), value: amount(review), testId: 'review-amount' },
            {
              id: 'pay',
              label: t('pledge.form.payWith'),
              value: payWith === 'balance' ? t('pledge.form.payBalance') : t('pledge.form.payChain'),
              testId: 'review-pay',
            },
            {
              id: 'period',
              label: t('review.period'),
              value: t('pledge.config.days', { count: days }),
              testId: 'review-period',
            },
            {
              id: 'value',
              label: t('pledge.form.value'),
              value: format.usdt(reviewed.usdtValue),
            },
            {
              id: 'output',
              label: t('pledge.form.totalOutput'),
              value: amount(reviewed.total, 'output'),
              testId: 'review-output',
            },
            { id: 'daily', label: t('pledge.form.daily'), value: amount(reviewed.daily, 'output') },
            { id: 'apr', label: t('returns.apr'), value: format.rate(reviewed.apr), testId: 'review-apr' },
            { id: 'power', label: t('pledge.form.power'), value: format.power(reviewed.power) },
          ]}
          note={payWith === 'balance' ? t('pledge.form.balanceNote') : t('pledge.form.chainNote', { product })}
          pending={pending}
          pendingLabel={chain.step ? t(`payment.steps.${chain.step}`) : t('pledge.form.submitting')}
          onConfirm={() => confirm(review)}
          onCancel={() => setReview(null)}
        />
      )}
    </form>
  )
}
