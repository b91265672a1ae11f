import { formatAmount } from '@solpledge/contract/client'
import type { CSSProperties } from 'react'
import { useTranslation } from 'react-i18next'
import type { Market } from '../api/get-market.ts'
import { type BookRow, bookRows } from '../utils/book.ts'
import { marketUnits } from '../utils/units.ts'

interface OrderBookProps {
  book: Market
  /** A level was tapped: its price, as the user would type it. */
  onPick: (price: string) => void
}

/** The book: asks above (the best ask nearest the middle), the price in between, bids below. Tap a level to use its price. */
export function OrderBook({ book, onPick }: OrderBookProps) {
  const { t, i18n } = useTranslation()
  const { market } = book
  const units = marketUnits(market, i18n.resolvedLanguage)
  const { asks, bids } = bookRows(book.asks, book.bids)

  const levels = (rows: BookRow[], side: 'ask' | 'bid', empty: string) =>
    rows.length === 0 ? (
      <li className="book-empty">{empty}</li>
    ) : (
      rows.map((row) => (
        <li key={row.price}>
          <button
            type="button"
            className={`book-row book-${side}`}
            style={{ '--depth': `${row.share}%` } as CSSProperties}
            data-testid={`book-${side}`}
            data-price={row.price}
            aria-label={t('trade.book.pick', { price: units.price(row.price) })}
            onClick={() => onPick(formatAmount(row.price, market.quote_decimals))}
          >
            <span className="book-price" data-testid="book-price">
              {units.price(row.price)}
            </span>
            <span className="book-amount" data-testid="book-amount">
              {units.amount(row.amount)}
            </span>
          </button>
        </li>
      ))
    )

  return (
    <section className="card order-book" data-testid="order-book" aria-labelledby="order-book-title">
      <h2 id="order-book-title" className="section-title">
        {t('trade.book.title')}
      </h2>
      <div className="book-head" aria-hidden="true">
        <span>{t('trade.book.price', { quote: market.quote })}</span>
        <span>{t('trade.book.amount', { symbol: market.symbol })}</span>
      </div>
      <ul className="book-side" data-testid="book-asks">
        {levels(asks, 'ask', t('trade.book.noAsks'))}
      </ul>
      <p className="book-last" data-testid="book-last-price">
        {units.price(market.price)} <small>{market.quote}</small>
      </p>
      <ul className="book-side" data-testid="book-bids">
        {levels(bids, 'bid', t('trade.book.noBids'))}
      </ul>
    </section>
  )
}
