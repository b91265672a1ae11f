/**
 * What a stake, a finance deposit or a node is expected to pay (docs/economics.md, "Returns and APR"): the one place
 * the server's payout formulas are restated for people before they commit money. Base units in bigint, every division
 * rounded down as the settlement rounds (docs/settlement.md, "What a day pays"); the annual rate is an exact fraction,
 * formatted only for display. Figures in USDT use the valuation price of today: an estimate, since the token's price
 * moves while the output does not.
 */

/** An exact rate: `num / den` (1 = 100 %); `den` is positive. */
export interface Ratio {
  num: bigint
  den: bigint
}

/** Days in the year of a simple annual rate (APR = the term's gain × 365 / the term's days, not compounded). */
export const DAYS_PER_YEAR = 365

const BPS = 10_000n
/** Finance deposits are in USDT, which counts 6 decimals and is worth itself. */
const USDT_DECIMALS = 6

/**
 * How the settlement releases `total` over a term of `days`: each of days 1 … N−1 pays `floor(total / N)`, the last
 * day pays what remains (docs/settlement.md: `min(floor(total / N), total − released)`, day N `total − released`).
 */
export function releaseSchedule(total: bigint, days: number): { daily: bigint; last: bigint } {
  const n = BigInt(Math.max(1, Math.trunc(days)))
  const daily = total / n
  return { daily, last: total - daily * (n - 1n) }
}

/** `amount` base units of a token of `decimals` in USDT base units at `price` (USDT base units per whole token). */
export const toUsdt = (amount: bigint, decimals: number, price: bigint) => (amount * price) / 10n ** BigInt(decimals)

/** What a position is expected to pay. Amounts are base units of the asset it pays in, or USDT base units (`…Usdt`). */
export interface Returns {
  /** The term in days; null for a node, which shares the node pool as long as it is held. */
  days: number | null
  /** A regular day's output (days 1 … N−1; every day for a node). */
  daily: bigint
  /** The last day's output (the rounding rest; equal to `daily` for a node). */
  last: bigint
  /** The output over the whole term; for a node, over a year (365 days). */
  total: bigint
  dailyUsdt: bigint
  totalUsdt: bigint
  /** The output asset's decimals and the price its USDT figures are taken at (USDT base units per whole token). */
  decimals: number
  price: bigint
  /**
   * The simple annual rate of the gain on the money paid in: the output less what is not paid back (a stake's
   * principal, a node's price), per year of the term. Exact; may be negative.
   */
  apr: Ratio
}

/** A staking period's rates as the staking configuration sends them. */
export interface StakePeriod {
  days: number
  output_bps: number
  power_bps: number
}

/**
 * A stake of `amount` {product} base units for `period` at `price` (USDT base units per whole token), as
 * modules/pledge computes it at entry: USDT value `floor(amount × price / 10^decimals)`, power
 * `floor(value × power_bps / 10000)`, total output `floor(amount × output_bps / 10000)` {product}, released daily. The
 * principal is not paid back (the output includes it), so the gain is the output less the amount.
 */
export function stakeReturns(
  amount: bigint,
  market: { price: bigint | string; decimals: number },
  period: StakePeriod,
): Returns & { usdtValue: bigint; power: bigint } {
  const price = BigInt(market.price)
  const total = (amount * BigInt(period.output_bps)) / BPS
  const usdtValue = toUsdt(amount, market.decimals, price)
  const { daily, last } = releaseSchedule(total, period.days)
  return {
    days: period.days,
    daily,
    last,
    total,
    dailyUsdt: toUsdt(daily, market.decimals, price),
    totalUsdt: toUsdt(total, market.decimals, price),
    decimals: market.decimals,
    price,
    apr: annualRate(total - amount, amount, period.days),
    usdtValue,
    power: (usdtValue * BigInt(period.power_bps)) / BPS,
  }
}

/** A finance product's rates as the products route sends them. */
export interface FinanceTerm {
  days: number
  output_bps: number
  power_bps: number
}

/**
 * A finance deposit of `amount` USDT base units for `term`, as modules/finance computes it: total output
 * `floor(amount × output_bps / 10000)` USDT released daily, power `floor(amount × power_bps / 10000)`. The principal is
 * redeemed at maturity, so the whole output is the gain.
 */
export function financeReturns(
  amount: bigint,
  term: FinanceTerm,
  decimals = USDT_DECIMALS,
): Returns & { power: bigint } {
  const total = (amount * BigInt(term.output_bps)) / BPS
  const { daily, last } = releaseSchedule(total, term.days)
  return {
    days: term.days,
    daily,
    last,
    total,
    dailyUsdt: daily,
    totalUsdt: total,
    decimals,
    price: 10n ** BigInt(decimals),
    apr: annualRate(total, amount, term.days),
    power: (amount * BigInt(term.power_bps)) / BPS,
  }
}

/** The node pool as the node levels route sends it: what it shares a day, among which weight, in which token. */
export interface PoolFigures {
  /** {product} base units shared among the nodes each settled day. */
  daily: bigint | string
  /** The dividend weight of the nodes sold so far. */
  total_weight: bigint | string
  decimals: number
  /** The valuation price: USDT base units per whole token. */
  price: bigint | string
}

/**
 * A node of a level bought now: from the next settled day on it gets `floor(pool × weight / total weight)` {product}
 * a day, the total weight then counting this node too (docs/settlement.md, "Node pool"). Its price is not paid back.
 * The share falls as more nodes are sold: an estimate with today's nodes.
 */
export function nodeReturns(
  level: { price_usdt: bigint | string; dividend_weight: number },
  pool: PoolFigures,
): Returns {
  const weight = BigInt(level.dividend_weight)
  const shared = BigInt(pool.total_weight) + weight
  const daily = shared > 0n ? (BigInt(pool.daily) * weight) / shared : 0n
  const price = BigInt(pool.price)
  const total = daily * BigInt(DAYS_PER_YEAR)
  const priceUsdt = BigInt(level.price_usdt)
  const scale = 10n ** BigInt(pool.decimals)
  return {
    days: null,
    daily,
    last: daily,
    total,
    dailyUsdt: toUsdt(daily, pool.decimals, price),
    totalUsdt: toUsdt(total, pool.decimals, price),
    decimals: pool.decimals,
    price,
    // A year's dividends in USDT, exactly (price per whole token), over the node's price.
    apr: { num: total * price, den: priceUsdt > 0n ? priceUsdt * scale : 1n },
  }
}

/**
 * What a position has paid by the end of day `day` of its term (1 … N), as the settlement releases it: `day` regular
 * days, or the whole total from the last day on; in its asset and in USDT at the estimate's price.
 */
export function receivedBy(returns: Returns, day: number): { amount: bigint; usdt: bigint } {
  const amount =
    returns.days !== null && day >= returns.days ? returns.total : returns.daily * BigInt(Math.max(0, Math.trunc(day)))
  return { amount, usdt: toUsdt(amount, returns.decimals, returns.price) }
}

/** `gain` over `principal` for `days`, per year: gain × 365 / (principal × days). 0 without a principal. */
function annualRate(gain: bigint, principal: bigint, days: number): Ratio {
  if (principal <= 0n) return { num: 0n, den: 1n }
  return { num: gain * BigInt(DAYS_PER_YEAR), den: principal * BigInt(Math.max(1, Math.trunc(days))) }
}

/**
 * The amount of a token worth `usdt` USDT base units at `price`, rounded up (never worth less than `usdt`): the
 * reference amount the staking cards show their figures for.
 */
export const worthOf = (usdt: bigint, decimals: number, price: bigint | string) => {
  const p = BigInt(price)
  return p > 0n ? (usdt * 10n ** BigInt(decimals) + p - 1n) / p : 0n
}
