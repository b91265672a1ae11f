/** Node levels with a translated name; any other code is shown as it is. */
export const KNOWN_LEVELS = ['junior', 'senior', 'super'] as const
export type KnownLevel = (typeof KNOWN_LEVELS)[number]

export const knownLevel = (code: string): KnownLevel | null =>
  (KNOWN_LEVELS as readonly string[]).includes(code) ? (code as KnownLevel) : null

/** Decimals of the dividend token when the wallet does not list it. */
export const DEFAULT_PRODUCT_DECIMALS = 9
