import i18next from 'i18next'
import { type Denomination, type FigureKind, formatMoney } from './format.ts'
import { createStore } from './store.ts'

/** How a state reads at a glance: done, on its way, or refused/returned (the badge tones of the app). */
export type ReceiptTone = 'ok' | 'wait' | 'bad'

/** One line of a receipt: a label and its figure, already formatted. */
export interface ReceiptRow {
  id: string
  label: string
  value: string
}

/**
 * What a money action did, as its receipt sheet shows it (components/receipt-sheet.tsx): what moved and the fee, row
 * by row; the state the action is in (a withdrawal under review, an order still on the book, a top-up credited); and
 * the transaction on the explorer when there is one.
 */
export interface Receipt {
  title: string
  rows: readonly ReceiptRow[]
  state: { text: string; tone: ReceiptTone; value: string }
  /** The on-chain transaction of the action, when it has one. */
  signature?: string | null
}

const store = createStore<Receipt | null>(null)

/** Opens the receipt sheet with `receipt` (the one open replaced): called once a money action has succeeded. */
export const showReceipt = (receipt: Receipt) => store.set(receipt)
export const closeReceipt = () => store.set(null)
export const useReceipt = store.use

/**
 * An amount for a receipt row, through the one formatter in the interface language (lib/format.ts): every decimal by
 * default, as on the detail screens (what moved and the fee, to the base unit); expected figures pass their own kind.
 */
export const receiptMoney = (units: bigint | string, asset: Denomination, kind: FigureKind = 'exact') =>
  formatMoney(units, asset, i18next.resolvedLanguage, kind)
