// What a payment intent is for, beyond crediting the payment (docs/money.md "Payment intents"): each module that sells
// something paid on chain registers its purpose here when the app is built (its routes plugin), so a new purpose
// touches its own module only. A top-up ('recharge') has no handler: the credit is all it does.
import type { IntentPurpose, MessageKey, PaymentIntent } from '@solpledge/contract'
import type { Selectable, Transaction } from 'kysely'
import type { Database } from '../../db/index.ts'
import type { DB, PaymentIntentsTable } from '../../db/schema.ts'

export type IntentRow = Selectable<PaymentIntentsTable>

/** The fields of intentCreate's body a purpose reads (checked by the contract's schema). */
export interface PurposeInput {
  coin?: string | undefined
  amount?: string | undefined
  days?: number | undefined
  level?: string | undefined
}

export interface PurposeRequest {
  userId: string
  productSymbol: string
  input: PurposeInput
  /** The field's value; refuses (-1) when the body lacks it. */
  need: <T>(value: T | undefined, field: string) => T
  /** Refuses (-1) a body naming a coin other than the one the purpose is paid in. */
  sameCoin: (code: string) => void
}

export interface PurposeHandler<Details = unknown> {
  /**
   * At creation: checks the request against what is on sale now (refusing with an AppError) and says what to pay —
   * the asset, the amount in base units — and the details fixed for fulfilment.
   */
  create(db: Database, request: PurposeRequest): Promise<{ coin: string; amount: string; details: Details }>
  /**
   * At fulfilment, inside its transaction: makes what was paid for from the balance, which the payment's credit, a
   * last write of the transaction (lib/commit.ts lastWrite), tops up before the purpose's own last writes (its payment
   * from the balance): do not read the balance for the paid amount, it is there by construction. Returns the outcome
   * to store: `applied:<id>`, or `refused:<message key>` when it can no longer be had (then nothing of it may be
   * written, so the deposit commits and the payment stays in the balance).
   */
  fulfil(trx: Transaction<DB>, intent: IntentRow, details: Details): Promise<string>
  /** What the API shows of the details. */
  present(details: Details): Partial<Pick<PaymentIntent, 'days' | 'level'>>
  /** The success message of a submitted intent. */
  successKey: MessageKey
}

const purposes = new Map<IntentPurpose, PurposeHandler>()

/** Registers (again, for every app built in this process: the handler is the same) the handler of a purpose. */
export function registerPurpose<Details>(name: Exclude<IntentPurpose, 'recharge'>, handler: PurposeHandler<Details>) {
  purposes.set(name, handler as PurposeHandler)
}

/** The handler of a purpose; undefined for a top-up. A purpose nobody registered is a fault, never a silent top-up. */
export function purposeHandler(name: string): PurposeHandler | undefined {
  if (name === 'recharge') return undefined
  const handler = purposes.get(name as IntentPurpose)
  if (!handler) throw new Error(`payment intent purpose ${name} is not registered`)
  return handler
}
