import { type Static, Type } from 'typebox'

/** Money in JSON: base units as a decimal string (the same rule as api.ts). */
const Units = Type.String({ pattern: '^(0|[1-9][0-9]{0,37})$' })
/** A rate or multiple in basis points: 10000 = 100 % = ×1. Integers, so no float ever touches money. */
const Bps = Type.Integer({ minimum: 0, maximum: 10_000_000 })

/**
 * The product's business constants (DESIGN.md §3): database-backed, versioned, effective on the next request. The
 * operator console edits them; the server seeds demo values on first start.
 */
export const BusinessConfig = Type.Object(
  {
    pledge: Type.Object(
      {
        /** {product}_pledge_min_u: the smallest stake, in USDT base units, converted at the current price. */
        minUsdt: Units,
        periods: Type.Array(
          Type.Object(
            {
              days: Type.Integer({ minimum: 1, maximum: 3650 }),
              /** Total output over the period as a share of the stake: 12000 = the stake ×1.2, released daily. */
              outputBps: Bps,
              /** Power = USDT value at entry × this multiple. */
              powerBps: Bps,
            },
            { additionalProperties: false },
          ),
          { minItems: 1 },
        ),
      },
      { additionalProperties: false },
    ),
    nodeLevels: Type.Array(
      Type.Object(
        {
          code: Type.String({ pattern: '^[a-z][a-z0-9_]{0,31}$' }),
          priceUsdt: Units,
          supplyCap: Type.Integer({ minimum: 0, maximum: 1_000_000_000 }),
          powerBonusBps: Bps,
          dividendWeight: Type.Integer({ minimum: 0, maximum: 1_000_000 }),
          onePerUser: Type.Boolean(),
        },
        { additionalProperties: false },
      ),
    ),
    finance: Type.Array(
      Type.Object(
        {
          days: Type.Union([Type.Literal(7), Type.Literal(30), Type.Literal(90), Type.Literal(180)]),
          powerBps: Bps,
          /** Total output over the period as a share of the deposit: 150 = 1.5 %. */
          outputBps: Bps,
        },
        { additionalProperties: false },
      ),
    ),
    /** Rewards paid to ancestors from a member's daily output, by referral level (1 = direct parent). */
    referralRewards: Type.Array(
      Type.Object({ level: Type.Integer({ minimum: 1, maximum: 50 }), rateBps: Bps }, { additionalProperties: false }),
    ),
    /** Small-market fuel tiers (SPEC §1 event: 3000, 10000, 20000, 50000, 100000), ascending. */
    fuelTiers: Type.Array(Type.Integer({ minimum: 1, maximum: 1_000_000_000_000 }), { minItems: 1 }),
    settlementHourUtc: Type.Integer({ minimum: 0, maximum: 23 }),
    /**
     * How often the monthly ranking snapshots are recomputed, in seconds (0 = never). RANK_INTERVAL_MS only seeds it.
     */
    rankIntervalSeconds: Type.Integer({ minimum: 0, maximum: 31 * 86_400 }),
    /**
     * The node pool: {product} base units paid to node holders each settled day, shared by dividend weight (each node
     * gets floor(pool × weight / total weight); the rounding remainder is not paid).
     */
    nodePoolDaily: Units,
    /** USDT base units per whole {product} token until the first trade sets the price. */
    referencePrice: Type.String({ pattern: '^[1-9][0-9]{0,37}$' }),
    /**
     * Quick trade ({product}/USDT order book). A price is USDT base units per whole {product} token and must be a
     * multiple of `tickSize`; an amount is {product} base units and must be a multiple of `lotSize`. tickSize ×
     * lotSize must be a multiple of one whole token (10^decimals base units) so that every fill's USDT value is exact.
     */
    trade: Type.Object(
      {
        tickSize: Type.String({ pattern: '^[1-9][0-9]{0,37}$' }),
        lotSize: Type.String({ pattern: '^[1-9][0-9]{0,37}$' }),
        /** The smallest order, {product} base units. */
        minAmount: Type.String({ pattern: '^[1-9][0-9]{0,37}$' }),
        /** The largest order, {product} base units. */
        maxAmount: Type.String({ pattern: '^[1-9][0-9]{0,37}$' }),
        /** Fee on what each side receives, maker and taker alike: 10 = 0.1 %. Rounded in the platform's favour. */
        feeBps: Type.Integer({ minimum: 0, maximum: 1000 }),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
)
export type BusinessConfig = Static<typeof BusinessConfig>
