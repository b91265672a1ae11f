import { isBase58OfLength } from './codec.ts'
import { INVALID_PARAMS, invalidParams, MIN_CONTEXT_SLOT_NOT_REACHED, RpcError } from './errors.ts'

/** Positional params of a JSON-RPC request (named params are not used by Solana RPC). */
export function positional(params: unknown): unknown[] {
  if (params === undefined || params === null) return []
  if (Array.isArray(params)) return params
  throw invalidParams('Invalid params: invalid type: map, expected a sequence')
}

export function requireAddress(value: unknown): string {
  if (value === undefined) throw invalidParams('Invalid params: missing required parameter')
  if (!isBase58OfLength(value, 32)) throw invalidParams('Invalid param: Invalid')
  return value
}

export function requireSignature(value: unknown): string {
  if (!isBase58OfLength(value, 64)) throw invalidParams('Invalid param: Invalid')
  return value
}

export function requireString(value: unknown, what: string): string {
  if (typeof value !== 'string') throw invalidParams(`Invalid params: invalid type: expected ${what}`)
  return value
}

/** u64-ish integer params: JSON numbers, or decimal strings for big values. */
export function requireInteger(value: unknown, what: string): bigint {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return BigInt(value)
  if (typeof value === 'string' && /^\d+$/.test(value)) return BigInt(value)
  if (typeof value === 'bigint' && value >= 0n) return value
  throw invalidParams(`Invalid params: invalid type: expected ${what}`)
}

export type Config = Record<string, unknown>

/** The optional trailing config object; rejects anything else. */
export function config(value: unknown): Config {
  if (value === undefined || value === null) return {}
  if (typeof value === 'object' && !Array.isArray(value)) return value as Config
  throw invalidParams('Invalid params: invalid type: expected a config object')
}

const COMMITMENTS = new Set(['processed', 'confirmed', 'finalized', 'recent', 'single', 'singleGossip', 'root', 'max'])

/** Validates commitment and minContextSlot (everything is final here once executed, so any commitment is met). */
export function checkContext(cfg: Config, currentSlot: number): void {
  const commitment = cfg.commitment ?? cfg.preflightCommitment
  if (commitment !== undefined && (typeof commitment !== 'string' || !COMMITMENTS.has(commitment))) {
    throw invalidParams(`Invalid params: unknown variant \`${String(commitment)}\``)
  }
  const minContextSlot = cfg.minContextSlot
  if (typeof minContextSlot === 'number' && minContextSlot > currentSlot) {
    throw new RpcError(MIN_CONTEXT_SLOT_NOT_REACHED, 'Minimum context slot has not been reached', {
      contextSlot: currentSlot,
    })
  }
}

export function optionalEnum<T extends string>(value: unknown, allowed: readonly T[], fallback: T): T {
  if (value === undefined || value === null) return fallback
  if (typeof value === 'string' && (allowed as readonly string[]).includes(value)) return value as T
  throw new RpcError(
    INVALID_PARAMS,
    `Invalid params: unknown variant \`${String(value)}\`, expected one of ${allowed.map((a) => `\`${a}\``).join(', ')}`,
  )
}
