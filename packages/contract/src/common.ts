import { type Static, type TSchema, Type } from 'typebox'
import type { AdminRole } from './admin.ts'
import { Text } from './fields.ts'

// What every domain's routes are built from: the route definition and the shared field schemas (money, pages, days).

export interface RouteDef<
  B extends TSchema = TSchema,
  D extends TSchema = TSchema,
  A extends boolean = boolean,
  M extends AdminRole | undefined = AdminRole | undefined,
> {
  /** Path below API_BASE, spelled as the spec spells it (docs/product.md#spec-paths). */
  path: string
  /** True when the call needs a session (User-Token and User-Address headers). */
  auth: A
  /** True for operator calls: they need the Operator-Token header (OPERATOR_TOKEN, see README). */
  operator?: boolean
  /**
   * Operator console routes: the weakest admin role allowed (viewer < operator < admin). They need an admin session
   * (Admin-Token header); anyone else is answered -403 before the handler runs.
   */
  admin?: M
  /** A multipart/form-data upload instead of a JSON body: the name of its one file field. */
  multipart?: string
  /** The call moves money or money state: it accepts the IDEMPOTENCY_HEADER and replays its first answer. */
  idempotent?: boolean
  /**
   * A download: the call answers a CSV file (text/csv, RFC 4180, UTF-8) named `filename`, a header line of `columns`
   * and one line per row, streamed, instead of the envelope (`data` is CsvFile); a refusal is still the envelope.
   */
  csv?: { filename: string; columns: readonly string[] }
  summary: string
  tag: string
  body: B
  data: D
}
export const route = <
  B extends TSchema,
  D extends TSchema,
  const A extends boolean,
  const M extends AdminRole | undefined = undefined,
>(
  def: RouteDef<B, D, A, M>,
) => def

/** The response schema of a successful call. Failures carry the same envelope with `data: null`. */
export const envelope = <T extends TSchema>(data: T) =>
  Type.Object({
    code: Type.Integer(),
    msg: Type.String({ description: "The message, in the request's language (accept-language): to show" }),
    key: Type.String({
      description: 'The message key msg was translated from (e.g. intent.notConfirmed): what a client decides on',
    }),
    data,
  })

/** The `data` of a download route (`csv`): the file itself, not an envelope. */
export const CsvFile = Type.String({ description: 'CSV (RFC 4180, UTF-8): a header line, then one line per row' })

export type BodyOf<R extends RouteDef> = Static<R['body']>
export type DataOf<R extends RouteDef> = Static<R['data']>

/** A base58 wallet address; decoded and checked for 32 bytes by the server. */
export const Address = Text({ minLength: 1, maxLength: 64, description: 'Solana wallet address (base58)' })
export const Empty = Type.Object({}, { additionalProperties: false })

/** Money in JSON: base units as a decimal string (see amount.ts). */
export const BaseUnits = Type.String({ pattern: '^(0|[1-9][0-9]{0,37})$', description: 'Amount in base units' })
export const PositiveBaseUnits = Type.String({
  pattern: '^[1-9][0-9]{0,37}$',
  description: 'Amount in base units, > 0',
})
/** A signed amount in base units: negative when it left the account. */
export const SignedBaseUnits = Type.String({ pattern: '^-?(0|[1-9][0-9]{0,37})$' })
export const Coin = Text({ minLength: 1, maxLength: 16, description: 'Asset code, e.g. USDT' })
export const Flag = Type.Union([Type.Literal(0), Type.Literal(1)])
export const Page = {
  page: Type.Integer({ minimum: 1, maximum: 100_000 }),
  limit: Type.Integer({ minimum: 1, maximum: 100 }),
}

/** A calendar day in UTC. */
export const Day = Type.String({
  pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$',
  format: 'date',
  description: 'UTC calendar day, YYYY-MM-DD',
})

export const PagedOf = <T extends TSchema>(item: T) =>
  Type.Object({ list: Type.Array(item), total: Type.Integer(), page: Type.Integer(), limit: Type.Integer() })
export const OptionalPage = {
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000, default: 1 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 10 })),
}
