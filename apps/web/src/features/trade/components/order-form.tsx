import { type MarketInfo, parseAmount, type TradeSide } from '@solpledge/contract/client'
import { type FormEvent, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { AmountInput, AmountSuffix } from '@/components/amount-input.tsx'
import { PrimaryButton } from '@/components/primary-button.tsx'
import { ReviewSheet } from '@/components/review-sheet.tsx'
import { formatBps } from '@/lib/format.ts'
import { showNotice } from '@/lib/notice.ts'
import { findAsset, useUserWallet } from '@/lib/user-wallet.ts'
import { usePlaceOrder } from '../api/place-order.ts'
import { maxOrderAmount, type OrderCheck, orderTotal, validateOrder } from '../utils/order-form.ts'
import { marketUnits } from '../utils/units.ts'

interface OrderFormProps {
  side: TradeSide
  market: MarketInfo
  /** The price field's text, shared with the order book (a tapped level fills it). */
  price: string
  onPriceChange: (text: string) => void
}

/**
 * A limit order: price and amount, the total, the available balance of the asset spent (USDT to buy, {product} to
 * sell) and the market's steps. Checked here first with the same rules as the server, then reviewed (price, amount,
 * total, what is locked, the fee) before it is placed.
 */
export function OrderForm({ side, market, price, onPriceChange }: OrderFormProps) {
  const { t, i18n } = useTranslation()
  const [amount, setAmount] = useState('')
  const { data: assets } = useUserWallet()
  const units = marketUnits(market, i18n.resolvedLanguage)
  const spent = side === 'buy' ? market.quote : market.symbol
  const asset = findAsset(assets, spent)
  const available = asset ? BigInt(asset.available) : assets ? 0n : undefined
  const [review, setReview] = useState<Extract<OrderCheck, { ok: true }> | null>(null)
  const place = usePlaceOrder(market, () => {
    setAmount('')
    setReview(null)
  })
  const pending = place.isPending

  const typedPrice = parseAmount(price, market.quote_decimals)
  const typedAmount = parseAmount(amount, market.base_decimals)
  const priceValue = typedPrice.ok && typedPrice.value > 0n ? typedPrice.value : null
  const total =
    priceValue !== null && typedAmount.ok ? orderTotal(priceValue, typedAmount.value, market.base_decimals) : null
  const max = available === undefined ? null : maxOrderAmount(side, priceValue, available, market)

  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (pending) return
    const check = validateOrder(side, price, amount, market, available)
    if (check.ok) setReview(check)
    else showNotice(check.notice, 'error')
  }

  return (
    <form className="amount-form order-form" onSubmit={submit} noValidate data-testid="order-form" data-side={side}>
      <label className="amount-form-label" htmlFor="order-price">
        {t('trade.form.price', { quote: market.quote })}
      </label>
      <AmountInput
        id="order-price"
        testId="order-price-input"
        value={price}
        onChange={onPriceChange}
        placeholder={t('trade.form.pricePlaceholder', { symbol: market.symbol })}
        disabled={pending}
        suffix={market.quote}
      />
      <label className="amount-form-label" htmlFor="order-amount">
        {t('trade.form.amount', { symbol: market.symbol })}
      </label>
      <AmountInput
        id="order-amount"
        testId="order-amount-input"
        value={amount}
        onChange={setAmount}
        placeholder={t('trade.form.amountPlaceholder', { symbol: market.symbol })}
        disabled={pending}
        suffix={
          <AmountSuffix
            unit={market.symbol}
            max={max}
            decimals={market.base_decimals}
            label={t('trade.form.max')}
            testId="order-max"
            disabled={pending}
            onMax={setAmount}
          />
        }
      />
      <div className="order-figures">
        <span data-testid="order-available">
          {t('trade.form.available', {
            amount: available === undefined ? '…' : side === 'buy' ? units.quote(available) : units.base(available),
          })}
        </span>
        <span>
          {t('trade.form.total')} <strong data-testid="order-total">{total === null ? '–' : units.quote(total)}</strong>
        </span>
      </div>
      <p className="amount-form-note">
        {t('trade.form.rules', {
          tick: units.price(market.tick_size),
          quote: market.quote,
          lot: units.amount(market.lot_size),
          min: units.amount(market.min_amount),
          symbol: market.symbol,
          fee: formatBps(market.fee_bps, i18n.resolvedLanguage),
        })}
      </p>
      <PrimaryButton
        type="submit"
        className={`order-submit order-submit-${side}`}
        data-testid="order-submit"
        disabled={pending}
      >
        {t(side === 'buy' ? 'trade.form.submitBuy' : 'trade.form.submitSell', { symbol: market.symbol })}
      </PrimaryButton>
      {review && (
        <ReviewSheet
          open
          title={t(side === 'buy' ? 'review.order.titleBuy' : 'review.order.titleSell', { symbol: market.symbol })}
          rows={[
            {
              id: 'price',
              label: t('trade.form.price', { quote: market.quote }),
              value: units.price(review.price),
              testId: 'review-price',
            },
            {
              id: 'amount',
              label: t('trade.form.amount', { symbol: market.symbol }),
              value: units.base(review.amount),
              testId: 'review-amount',
            },
            { id: 'total', label: t('trade.form.total'), value: units.quote(review.total), testId: 'review-total' },
            {
              id: 'locked',
              label: t('review.order.locked'),
              value: side === 'buy' ? units.quote(review.total) : units.base(review.amount),
              testId: 'review-locked',
            },
            {
              id: 'fee',
              label: t('review.order.fee'),
              value: formatBps(market.fee_bps, i18n.resolvedLanguage),
              testId: 'review-fee',
            },
          ]}
          note={t('review.order.note')}
          pending={pending}
          pendingLabel={t('trade.form.submitting')}
          onConfirm={() => place.mutate({ side, price: review.price, amount: review.amount })}
          onCancel={() => setReview(null)}
        />
      )}
    </form>
  )
}
