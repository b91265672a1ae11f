import { type Static, Type } from 'typebox'
import { CONFIG_UNITS } from './economics.ts'

/** A field's unit as CONFIG_UNITS (economics.ts) declares it, for the schema's `x-unit` annotation. */
function unitOf(field: string, kind: 'amount' | 'bps'): 'usdt' | 'product' | 'bps' {
  const unit = CONFIG_UNITS[field]
  if (unit === undefined || (unit === 'bps') !== (kind === 'bps'))
    throw new Error(`CONFIG_UNITS must declare ${field} as ${kind === 'bps' ? "'bps'" : 'an amount'}`)
  return unit === 'bps' ? 'bps' : unit.asset
}

/**
 * Money in JSON: base units as a decimal string (the same rule as common.ts), positive or also 0; annotated with its
 * asset from CONFIG_UNITS.
 */
const Amount = (field: string, { positive = false } = {}) =>
  Type.String({
    pattern: positive ? '^[1-9][0-9]{0,37}$' : '^(0|[1-9][0-9]{0,37})$',
    'x-unit': unitOf(field, 'amount'),
  })
/** Basis points (10000 = 100 % = ×1), annotated as such. Integers, so no float ever touches money. */
const Bps = (field: string, minimum: number, maximum: number) =>
  Type.Integer({ minimum, maximum, 'x-unit': unitOf(field, 'bps') })
/** A rate in basis points, at most 100 %. */
const Rate = (field: string) => Bps(field, 0, 10_000)
/** A multiple in basis points, at most ×100. */
const Multiple = (field: string) => Bps(field, 0, 1_000_000)

/**
 * The product's business constants (docs/design.md#glossary): database-backed, versioned, effective on the next
 * request. The operator console edits them; the server seeds demo values on first start.
 */
export const BusinessConfig = Type.Object(
  {
    pledge: Type.Object(
      {
        /** {product}_pledge_min_u: the smallest stake, in USDT base units, converted at the current price. */
        minUsdt: Amount('pledge.minUsdt'),
        periods: Type.Array(
          Type.Object(
            {
              days: Type.Integer({ minimum: 1, maximum: 3650 }),
              /** Total output over the period as a share of the stake: 12000 = the stake ×1.2, released daily. */
              outputBps: Multiple('pledge.periods.outputBps'),
              /** Power = USDT value at entry × this multiple. */
              powerBps: Multiple('pledge.periods.powerBps'),
            },
            { additionalProperties: false },
          ),
          { minItems: 1, maxItems: 20 },
        ),
      },
      { additionalProperties: false },
    ),
    nodeLevels: Type.Array(
      Type.Object(
        {
          code: Type.String({ pattern: '^[a-z][a-z0-9_]{0,31}$' }),
          priceUsdt: Amount('nodeLevels.priceUsdt'),
          supplyCap: Type.Integer({ minimum: 0, maximum: 10_000_000 }),
          powerBonusBps: Multiple('nodeLevels.powerBonusBps'),
          dividendWeight: Type.Integer({ minimum: 0, maximum: 1_000_000 }),
          onePerUser: Type.Boolean(),
        },
        { additionalProperties: false },
      ),
      { maxItems: 20 },
    ),
    finance: Type.Array(
      Type.Object(
        {
          days: Type.Union([Type.Literal(7), Type.Literal(30), Type.Literal(90), Type.Literal(180)]),
          powerBps: Multiple('finance.powerBps'),
          /** Total output over the period as a share of the deposit: 150 = 1.5 %. */
          outputBps: Rate('finance.outputBps'),
        },
        { additionalProperties: false },
      ),
      { maxItems: 4 },
    ),
    /**
     * Rewards paid to ancestors from a member's daily output, by referral level (1 = direct parent); together at most
     * 100 % of the output.
     */
    referralRewards: Type.Array(
      Type.Object(
        { level: Type.Integer({ minimum: 1, maximum: 50 }), rateBps: Rate('referralRewards.rateBps') },
        { additionalProperties: false },
      ),
      { maxItems: 50 },
    ),
    /** Small-market fuel tiers (docs/design.md#power-and-performance: 3000, 10000, 20000, 50000, 100000), ascending. */
    fuelTiers: Type.Array(Type.Integer({ minimum: 1, maximum: 1_000_000_000 }), { minItems: 1, maxItems: 20 }),
    settlementHourUtc: Type.Integer({ minimum: 0, maximum: 23 }),
    /**
     * How often the monthly ranking snapshots are recomputed, in seconds (0 = never). RANK_INTERVAL_MS only seeds it.
     */
    rankIntervalSeconds: Type.Integer({ minimum: 0, maximum: 31 * 86_400 }),
    /**
     * The node pool: {product} base units paid to node holders each settled day, shared by dividend weight (each node
     * gets floor(pool × weight / total weight); the rounding remainder is not paid).
     */
    nodePoolDaily: Amount('nodePoolDaily'),
    /**
     * USDT base units per whole {product} token: the quick trade's price before its first trade, the centre of the
     * valuation band and the valuation price when trading is thin.
     */
    referencePrice: Amount('referencePrice', { positive: true }),
    /**
     * The valuation price (docs/trade.md "Valuation price"), which the staking minimum, a new stake's USDT value and
     * power and the home price use instead of the last trade: the mean of 24 equal intervals of the window, each the
     * volume-weighted price of its fills within the band (completed with the reference price up to a 24th of the
     * minimum volume), each account counting at most a 25th of the minimum volume; or the reference price while the
     * window's counted USDT volume is below the minimum.
     */
    valuation: Type.Object(
      {
        /** The window, in seconds, ending now: 10 minutes to 30 days. */
        windowSeconds: Type.Integer({ minimum: 600, maximum: 30 * 86_400 }),
        /** Fills further than this from the reference price are ignored: 2000 = ±20 %. 1 % to 90 %. */
        bandBps: Bps('valuation.bandBps', 100, 9000),
        /**
         * Below this USDT volume (base units) of in-band fills in the window, each account counting at most a 25th of
         * it, the reference price is used.
         */
        minQuoteVolume: Amount('valuation.minQuoteVolume'),
      },
      { additionalProperties: false },
    ),
    /**
     * Who earns referral rewards (docs/economics.md): level-L rewards of a day go only to a referrer whose stakes in
     * force that day are worth at least `minStakeUsdt` (USDT value at entry; 0 = no such rule) and, when
     * `directPerLevel` is on, who has at least L direct members. What a referrer does not qualify for is not paid.
     */
    referralGuard: Type.Object(
      {
        minStakeUsdt: Amount('referralGuard.minStakeUsdt'),
        directPerLevel: Type.Boolean(),
      },
      { additionalProperties: false },
    ),
    /**
     * The settlement's circuit breaker (docs/settlement.md, "Circuit breaker"): a day whose payout in an asset (outputs,
     * dividends, rewards) is more than `averageMultipleBps` of the trailing 7-day average (30000 = ×3), or more than
     * `reserveShareBps` of what the platform holds of the asset on chain (1000 = 10 %), is held, not paid, until an
     * admin releases it (two once two admins exist).
     */
    settlementBreaker: Type.Object(
      {
        averageMultipleBps: Bps('settlementBreaker.averageMultipleBps', 10_000, 1_000_000),
        reserveShareBps: Bps('settlementBreaker.reserveShareBps', 1, 10_000),
      },
      { additionalProperties: false },
    ),
    /**
     * Quick trade ({product}/USDT order book). A price is USDT base units per whole {product} token and must be a
     * multiple of `tickSize`; an amount is {product} base units and must be a multiple of `lotSize`. tickSize ×
     * lotSize must be a multiple of one whole token (10^decimals base units) so that every fill's USDT value is exact.
     */
    trade: Type.Object(
      {
        tickSize: Amount('trade.tickSize', { positive: true }),
        lotSize: Amount('trade.lotSize', { positive: true }),
        /** The smallest order, {product} base units. */
        minAmount: Amount('trade.minAmount', { positive: true }),
        /** The largest order, {product} base units. */
        maxAmount: Amount('trade.maxAmount', { positive: true }),
        /** Fee on what each side receives, maker and taker alike: 10 = 0.1 %. Rounded in the platform's favour. */
        feeBps: Bps('trade.feeBps', 0, 1000),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
)
export type BusinessConfig = Static<typeof BusinessConfig>
