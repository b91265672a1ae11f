import { type Static, Type } from 'typebox'

/** Money in JSON: base units as a decimal string (the same rule as common.ts). */
const Units = Type.String({ pattern: '^(0|[1-9][0-9]{0,37})$' })
/** A rate in basis points, at most 100 %: 10000 = 100 %. Integers, so no float ever touches money. */
const Rate = Type.Integer({ minimum: 0, maximum: 10_000 })
/** A multiple in basis points: 10000 = ×1, at most ×100. */
const Multiple = Type.Integer({ minimum: 0, maximum: 1_000_000 })

/**
 * The largest value of each amount of the configuration, in whole tokens of its asset (usdt, or product: the
 * platform's token). `[]` stands for every row of a list. Beyond them a value is a typing mistake, not a decision.
 */
export const CONFIG_AMOUNT_LIMITS: Record<string, { asset: 'usdt' | 'product'; max: bigint }> = {
  'pledge.minUsdt': { asset: 'usdt', max: 1_000_000n },
  'nodeLevels[].priceUsdt': { asset: 'usdt', max: 10_000_000n },
  nodePoolDaily: { asset: 'product', max: 100_000_000n },
  referencePrice: { asset: 'usdt', max: 1_000_000n },
  'referralGuard.minStakeUsdt': { asset: 'usdt', max: 1_000_000n },
  'trade.tickSize': { asset: 'usdt', max: 1_000n },
  'trade.lotSize': { asset: 'product', max: 1_000_000n },
  'trade.minAmount': { asset: 'product', max: 1_000_000_000n },
  'trade.maxAmount': { asset: 'product', max: 1_000_000_000n },
}

/**
 * The product's business constants (docs/design.md#glossary): database-backed, versioned, effective on the next
 * request. The operator console edits them; the server seeds demo values on first start.
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
              outputBps: Multiple,
              /** Power = USDT value at entry × this multiple. */
              powerBps: Multiple,
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
          priceUsdt: Units,
          supplyCap: Type.Integer({ minimum: 0, maximum: 10_000_000 }),
          powerBonusBps: Multiple,
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
          powerBps: Multiple,
          /** Total output over the period as a share of the deposit: 150 = 1.5 %. */
          outputBps: Rate,
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
      Type.Object({ level: Type.Integer({ minimum: 1, maximum: 50 }), rateBps: Rate }, { additionalProperties: false }),
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
    nodePoolDaily: Units,
    /**
     * USDT base units per whole {product} token: the quick trade's price before its first trade, the centre of the
     * valuation band and the valuation price when trading is thin.
     */
    referencePrice: Type.String({ pattern: '^[1-9][0-9]{0,37}$' }),
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
        bandBps: Type.Integer({ minimum: 100, maximum: 9000 }),
        /**
         * Below this USDT volume (base units) of in-band fills in the window, each account counting at most a 25th of
         * it, the reference price is used.
         */
        minQuoteVolume: Units,
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
        minStakeUsdt: Units,
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
        averageMultipleBps: Type.Integer({ minimum: 10_000, maximum: 1_000_000 }),
        reserveShareBps: Type.Integer({ minimum: 1, maximum: 10_000 }),
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
