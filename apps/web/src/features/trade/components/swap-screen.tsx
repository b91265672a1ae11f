import { formatAmount, parseAmount } from '@solpledge/contract/client'
import { type FormEvent, useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { AmountInput } from '@/components/amount-input.tsx'
import { BackLink } from '@/components/back-link.tsx'
import { Facts } from '@/components/facts.tsx'
import { Page } from '@/components/page.tsx'
import { PrimaryButton } from '@/components/primary-button.tsx'
import { ReviewSheet } from '@/components/review-sheet.tsx'
import { SignedOut } from '@/components/signed-out.tsx'
import { Tabs } from '@/components/tabs.tsx'
import { ApiError } from '@/lib/api-client.ts'
import { showNotice } from '@/lib/notice.ts'
import { useSignedInAddress } from '@/lib/session.ts'
import { useDebouncedValue } from '@/lib/use-debounced-value.ts'
import { findAsset, useUserWallet } from '@/lib/user-wallet.ts'
import { BOOK_DEPTH, type Market, useMarket } from '../api/get-market.ts'
import { useLiveMarket } from '../api/live-market.ts'
import { type SwapQuote, useSwap, useSwapQuote } from '../api/swap.ts'
import { HIGH_IMPACT_BPS, SLIPPAGE_OPTIONS, type Slippage, swapDepth, validateSwap } from '../utils/swap.ts'
import './trade.css'
import type { FigureKind } from '@/lib/format.ts'
import { useFormat } from '@/lib/use-format.ts'

type AmountOf = (coin: string, units: bigint | string, kind?: FigureKind) => string

/**
 * A quote's figures as the form and its review both show them, so that the two agree: what arrives and the minimum as
 * balances (rounded down: never more than will arrive), the average price as a price and the fee as a charge (both
 * rounded half-up).
 */
const quoteFigures = (quote: SwapQuote, amountOf: AmountOf, quoteCoin: string) => ({
  receive: amountOf(quote.to, quote.amount_out),
  minimum: amountOf(quote.to, quote.minimum_received),
  average: quote.average_price === null ? '–' : amountOf(quoteCoin, quote.average_price, 'price'),
  fee: amountOf(quote.to, quote.fee, 'fee'),
})

/** How long the typed amount must rest before a quote is asked for. */
const QUOTE_DEBOUNCE_MS = 400

/** /swap: {product} ↔ USDT at once at the book's prices, with the expected amount, price impact and minimum. */
export function SwapScreen() {
  const { t } = useTranslation()
  const address = useSignedInAddress()
  const market = useMarket()
  useLiveMarket()
  return (
    <Page title={t('screens.swap')}>
      <BackLink to="/" />
      <Link className="trade-switch-link" to="/quick-trade/buy" data-testid="to-trade">
        {t('trade.toTrade')}
      </Link>
      {market.data ? (
        <SwapForm book={market.data} signedIn={address !== null} />
      ) : (
        <p className="muted-note">{market.isError ? t('trade.market.unavailable') : t('common.loading')}</p>
      )}
    </Page>
  )
}

/** The swap form over the market and its book as last read (`book`: the market with its best levels). */
function SwapForm({ book, signedIn }: { book: Market; signedIn: boolean }) {
  const { t } = useTranslation(['ui', 'msg'])
  const { market } = book
  const format = useFormat()
  const [from, setFrom] = useState(market.symbol)
  const [text, setText] = useState('')
  const [slippage, setSlippage] = useState<Slippage>(SLIPPAGE_OPTIONS[0])
  const [result, setResult] = useState<{ paid: string; received: string } | null>(null)
  const to = from === market.symbol ? market.quote : market.symbol
  const decimals = (coin: string) => (coin === market.symbol ? market.base_decimals : market.quote_decimals)
  const amountOf = (coin: string, units: bigint | string, kind?: FigureKind) =>
    format.money(units, { symbol: coin, decimals: decimals(coin) }, kind)

  const { data: assets } = useUserWallet()
  const asset = findAsset(assets, from)
  const available = asset ? BigInt(asset.available) : assets ? 0n : undefined

  // The quote follows the typed amount once it rests; it is only used while it answers what is typed now.
  const settled = parseAmount(useDebouncedValue(text, QUOTE_DEBOUNCE_MS), decimals(from))
  const request = settled.ok && settled.value > 0n ? { from, amount: settled.value, slippageBps: slippage } : null
  const quote = useSwapQuote(request)
  const typed = parseAmount(text, decimals(from))
  const current =
    quote.data && !quote.isPlaceholderData && request && typed.ok && typed.value === request.amount ? quote.data : null
  const awaitingQuote = typed.ok && typed.value > 0n && current === null

  // What the book can fill of a swap from this asset; nothing to swap against on an empty side (a fresh install).
  const depth = swapDepth(book, from === market.symbol ? 'base' : 'quote', market.base_decimals, BOOK_DEPTH)
  const depthText =
    depth &&
    t(depth.more ? 'trade.swap.depthMore' : 'trade.swap.depth', { amount: amountOf(from, depth.amount, 'exact') })
  const blockedId = useId()
  const blocked = depth === null || (current !== null && !current.enough_liquidity)

  // The swap as reviewed: the amount and the quote the user saw (its minimum received is what the swap insists on).
  const [review, setReview] = useState<{ amount: bigint; quote: SwapQuote } | null>(null)
  const swap = useSwap(market, () => {
    setText('')
    setReview(null)
  })
  const pending = swap.isPending
  const reviewed = review && quoteFigures(review.quote, amountOf, market.quote)

  const switchAssets = () => {
    setFrom(to)
    setText('')
    setResult(null)
  }

  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (pending) return
    const check = validateSwap(text, decimals(from), available)
    if (!check.ok) return showNotice(check.notice, 'error')
    if (!current) return
    if (blocked) return
    setReview({ amount: check.value, quote: current })
  }
  const confirm = ({ amount, quote }: { amount: bigint; quote: SwapQuote }) => {
    setResult(null)
    swap.mutate(
      { from, amount, minReceived: quote.minimum_received },
      {
        onSuccess: (data) =>
          setResult({
            paid: amountOf(from, data.amount_in, 'exact'),
            received: amountOf(to, data.amount_out, 'exact'),
          }),
      },
    )
  }

  return (
    <form className="card trade-card swap-card" onSubmit={submit} noValidate data-testid="swap-form" data-from={from}>
      <div className="swap-leg">
        <div className="swap-leg-head">
          <label htmlFor="swap-amount">{t('trade.swap.pay')}</label>
          {signedIn && (
            <span data-testid="swap-available">
              {t('trade.swap.available', { amount: available === undefined ? '…' : amountOf(from, available) })}
            </span>
          )}
        </div>
        <AmountInput
          id="swap-amount"
          testId="swap-amount"
          value={text}
          onChange={setText}
          disabled={pending}
          placeholder="0"
          suffix={
            <>
              <strong className="swap-coin">{from}</strong>
              {available !== undefined && available > 0n && (
                <button
                  type="button"
                  className="amount-max"
                  data-testid="swap-max"
                  disabled={pending}
                  onClick={() => setText(formatAmount(available, decimals(from)))}
                >
                  {t('trade.swap.max')}
                </button>
              )}
            </>
          }
        />
      </div>
      <button
        type="button"
        className="swap-switch"
        data-testid="swap-switch"
        aria-label={t('trade.swap.switch')}
        disabled={pending}
        onClick={switchAssets}
      >
        <svg viewBox="0 0 24 24" aria-hidden="true">
          <path d="M7 4v16M7 20l-4-4M7 20l4-4M17 20V4M17 4l-4 4M17 4l4 4" />
        </svg>
      </button>
      <div className="swap-leg">
        <div className="swap-leg-head">
          <span>{t('trade.swap.receive')}</span>
        </div>
        <output className="swap-expected" data-testid="swap-expected" htmlFor="swap-amount">
          {current ? format.amount(current.amount_out, { symbol: to, decimals: decimals(to) }) : '–'}{' '}
          <strong className="swap-coin">{to}</strong>
        </output>
      </div>
      <p
        className={depth ? 'muted-note swap-depth' : 'swap-warning swap-depth'}
        data-testid="swap-depth"
        id={depth ? undefined : blockedId}
        role={depth ? undefined : 'status'}
      >
        {depthText ?? t('trade.swap.emptyBook', { coin: to })}
      </p>
      <div className="swap-slippage">
        <span className="amount-form-label">{t('trade.swap.slippage')}</span>
        <Tabs<`${Slippage}`>
          label={t('trade.swap.slippage')}
          testId="swap-slippage"
          value={`${slippage}`}
          onChange={(value) => setSlippage(Number(value) as Slippage)}
          options={SLIPPAGE_OPTIONS.map((bps) => ({ value: `${bps}` as const, label: format.percent(bps) }))}
        />
      </div>
      {awaitingQuote && (
        <p className="muted-note">
          {quote.error instanceof ApiError
            ? quote.error.message
            : quote.isError
              ? t('trade.swap.quoteUnavailable')
              : t('trade.swap.quoting')}
        </p>
      )}
      {current && (
        <QuoteFacts
          quote={current}
          amountOf={amountOf}
          quoteCoin={market.quote}
          decimals={decimals(from)}
          onUse={setText}
          warningId={depth ? blockedId : undefined}
        />
      )}
      <p className="amount-form-note">{t('trade.swap.note')}</p>
      {signedIn ? (
        <PrimaryButton
          type="submit"
          data-testid="swap-submit"
          disabled={pending || awaitingQuote || blocked}
          aria-describedby={blocked ? blockedId : undefined}
        >
          {t('trade.swap.submit')}
        </PrimaryButton>
      ) : (
        <SignedOut text={t('trade.signedOut')} testId="trade-signed-out" />
      )}
      {result && (
        <p className="swap-result" data-testid="swap-result" role="status">
          {t('trade.swap.done', result)}
        </p>
      )}
      {review && reviewed && (
        <ReviewSheet
          open
          title={t('review.swap.title', { from, to })}
          rows={[
            {
              id: 'pay',
              label: t('trade.swap.pay'),
              value: amountOf(from, review.amount, 'exact'),
              testId: 'review-amount',
            },
            { id: 'receive', label: t('trade.swap.receive'), value: reviewed.receive, testId: 'review-receive' },
            { id: 'minimum', label: t('trade.swap.minimum'), value: reviewed.minimum, testId: 'review-minimum' },
            { id: 'price', label: t('trade.swap.rate'), value: reviewed.average, testId: 'review-price' },
            { id: 'fee', label: t('trade.swap.fee'), value: reviewed.fee, testId: 'review-fee' },
            { id: 'slippage', label: t('trade.swap.slippage'), value: format.percent(slippage) },
          ]}
          note={t('trade.swap.note')}
          pending={pending}
          pendingLabel={t('trade.swap.submitting')}
          onConfirm={() => confirm(review)}
          onCancel={() => setReview(null)}
        />
      )}
    </form>
  )
}

interface QuoteFactsProps {
  quote: SwapQuote
  amountOf: AmountOf
  /** The coin prices are counted in (USDT). */
  quoteCoin: string
  /** Decimals of the asset given, to offer what the book can take as the amount. */
  decimals: number
  onUse: (text: string) => void
  /** Id of the warning when the book cannot take the whole amount (Swap is disabled and points to it). */
  warningId: string | undefined
}

/** The quote's figures; when the book cannot take the whole amount, what it can take and a way to swap that. */
function QuoteFacts({ quote, amountOf, quoteCoin, decimals, onUse, warningId }: QuoteFactsProps) {
  const { t } = useTranslation(['ui', 'msg'])
  const format = useFormat()
  const figures = quoteFigures(quote, amountOf, quoteCoin)
  const high = quote.price_impact_bps >= HIGH_IMPACT_BPS
  const canTake = BigInt(quote.amount_in) > 0n
  return (
    <>
      <Facts
        className="facts-box"
        facts={[
          {
            id: 'average',
            label: t('trade.swap.rate'),
            value: figures.average,
            testId: 'swap-average',
          },
          {
            id: 'impact',
            label: t('trade.swap.impact'),
            value: (
              <span className={high ? 'swap-impact-high' : undefined}>{format.percent(quote.price_impact_bps)}</span>
            ),
            testId: 'swap-impact',
          },
          {
            id: 'minimum',
            label: t('trade.swap.minimum'),
            value: figures.minimum,
            testId: 'swap-minimum',
          },
          { id: 'fee', label: t('trade.swap.fee'), value: figures.fee, testId: 'swap-fee' },
        ]}
      />
      {!quote.enough_liquidity && (
        <div className="swap-warning" data-testid="swap-liquidity" id={warningId} role="alert">
          <p>{t('msg:trade.noLiquidity')}</p>
          {canTake && (
            <>
              <p>{t('trade.swap.partial', { amount: amountOf(quote.from, quote.amount_in) })}</p>
              <button
                type="button"
                className="trade-outline-button"
                data-testid="swap-use-partial"
                onClick={() => onUse(formatAmount(quote.amount_in, decimals))}
              >
                {t('trade.swap.usePartial', { amount: amountOf(quote.from, quote.amount_in) })}
              </button>
            </>
          )}
        </div>
      )}
    </>
  )
}
