import type { EncodedAccount, MaybeEncodedAccount, ReadonlyUint8Array } from '@solana/kit'
import type { Chain } from './chain.ts'
import { fromBase58, fromBase64, toBase58, toBase64 } from './codec.ts'
import { INVALID_PARAMS, INVALID_REQUEST, RpcError } from './errors.ts'
import { type Config, optionalEnum } from './params.ts'
import {
  decodeMint,
  decodeTokenAccount,
  parsedMintInfo,
  parsedTokenAccountInfo,
  TOKEN_PROGRAMS,
  tokenProgramLabel,
} from './token.ts'

export const ACCOUNT_ENCODINGS = ['binary', 'base58', 'base64', 'jsonParsed', 'base64+zstd'] as const
export type AccountEncoding = (typeof ACCOUNT_ENCODINGS)[number]

/** Rent epoch real RPC reports for rent-exempt accounts (u64::MAX). */
export const RENT_EXEMPT_EPOCH = 18446744073709551615n
const MAX_BASE58_BYTES = 128
const SYSTEM_PROGRAM_ID = '11111111111111111111111111111111'

export interface DataSlice {
  offset: number
  length: number
}

export interface AccountView {
  encoding: AccountEncoding
  dataSlice?: DataSlice
  /** RPC methods refuse base58 for data over 128 bytes; subscriptions encode it anyway. */
  unlimitedBase58?: boolean
}

/** Reads `encoding` and `dataSlice` from a config object and validates them like Agave does. */
export function accountView(cfg: Config, fallback: AccountEncoding): AccountView {
  const encoding = optionalEnum(cfg.encoding, ACCOUNT_ENCODINGS, fallback)
  if (encoding === 'base64+zstd') {
    throw new RpcError(INVALID_PARAMS, 'Invalid params: base64+zstd encoding is not supported by the local chain')
  }
  let dataSlice: DataSlice | undefined
  if (cfg.dataSlice !== undefined && cfg.dataSlice !== null) {
    const slice = cfg.dataSlice as Partial<DataSlice>
    if (typeof slice.offset !== 'number' || typeof slice.length !== 'number') {
      throw new RpcError(INVALID_PARAMS, 'Invalid params: dataSlice needs numeric offset and length')
    }
    if (encoding === 'jsonParsed') {
      throw new RpcError(
        INVALID_REQUEST,
        'Sliced account data can only be encoded using binary (base 58) or base64 encoding.',
      )
    }
    dataSlice = { offset: slice.offset, length: slice.length }
  }
  return { encoding, dataSlice }
}

/** The jsonParsed 'spl-token' form of a token account or mint, or null when the account is neither. */
export function parseAccountData(
  chain: Chain,
  owner: string,
  data: ReadonlyUint8Array,
): Record<string, unknown> | null {
  if (!TOKEN_PROGRAMS.has(owner)) return null
  const token = decodeTokenAccount(owner, data)
  if (token) {
    const decimals = chain.mintDecimals(token.mint)
    if (decimals === null) return null
    return {
      program: tokenProgramLabel(owner),
      parsed: { info: parsedTokenAccountInfo(token, decimals), type: 'account' },
      space: data.length,
    }
  }
  const mint = decodeMint(owner, data)
  if (mint) {
    return {
      program: tokenProgramLabel(owner),
      parsed: { info: parsedMintInfo(mint), type: 'mint' },
      space: data.length,
    }
  }
  return null
}

/** An account in the UiAccount shape of real RPC (data encoded as requested). */
export function encodeAccount(chain: Chain, account: EncodedAccount, view: AccountView): Record<string, unknown> {
  const full = account.data
  let data: unknown
  if (view.encoding === 'jsonParsed') {
    data = parseAccountData(chain, account.programAddress, full) ?? [toBase64(full), 'base64']
  } else {
    const slice = view.dataSlice
      ? full.subarray(Math.min(view.dataSlice.offset, full.length), view.dataSlice.offset + view.dataSlice.length)
      : full
    const base58 = view.encoding === 'base58' || view.encoding === 'binary'
    if (base58 && !view.unlimitedBase58 && slice.length > MAX_BASE58_BYTES) {
      throw new RpcError(
        INVALID_REQUEST,
        `Encoded binary (base 58) data should be less than ${MAX_BASE58_BYTES} bytes, please use Base64 encoding.`,
      )
    }
    if (view.encoding === 'binary') data = toBase58(slice)
    else if (view.encoding === 'base58') data = [toBase58(slice), 'base58']
    else data = [toBase64(slice), 'base64']
  }
  return {
    data,
    executable: account.executable,
    lamports: BigInt(account.lamports),
    owner: account.programAddress,
    rentEpoch: RENT_EXEMPT_EPOCH,
    space: full.length,
  }
}

/** encodeAccount for a possibly missing account (null when it does not exist). */
export function encodeMaybeAccount(
  chain: Chain,
  account: MaybeEncodedAccount,
  view: AccountView,
): Record<string, unknown> | null {
  return account.exists ? encodeAccount(chain, account, view) : null
}

/** What notifications carry for an account that was closed: an empty system-owned account. */
export function encodeClosedAccount(view: AccountView): Record<string, unknown> {
  const data = view.encoding === 'binary' ? '' : ['', view.encoding === 'base58' ? 'base58' : 'base64']
  return { data, executable: false, lamports: 0, owner: SYSTEM_PROGRAM_ID, rentEpoch: 0, space: 0 }
}

export type AccountFilter = { dataSize: number } | { memcmp: { offset: number; bytes: Uint8Array } }

/** Parses getProgramAccounts / programSubscribe filters (dataSize and memcmp with base58 or base64 bytes). */
export function parseFilters(value: unknown): AccountFilter[] {
  if (value === undefined || value === null) return []
  if (!Array.isArray(value) || value.length > 4) throw new RpcError(INVALID_PARAMS, 'Too many filters provided; max 4')
  return value.map((filter: Record<string, unknown>) => {
    if (typeof filter?.dataSize === 'number') return { dataSize: filter.dataSize }
    const memcmp = filter?.memcmp as { offset?: unknown; bytes?: unknown; encoding?: unknown } | undefined
    if (memcmp && typeof memcmp.offset === 'number' && typeof memcmp.bytes === 'string') {
      try {
        const bytes = memcmp.encoding === 'base64' ? fromBase64(memcmp.bytes) : fromBase58(memcmp.bytes)
        return { memcmp: { offset: memcmp.offset, bytes } }
      } catch {
        throw new RpcError(INVALID_PARAMS, 'Invalid params: invalid memcmp bytes')
      }
    }
    throw new RpcError(INVALID_PARAMS, 'Invalid params: unsupported filter')
  })
}

export function matchesFilters(data: ReadonlyUint8Array, filters: AccountFilter[]): boolean {
  return filters.every((filter) => {
    if ('dataSize' in filter) return data.length === filter.dataSize
    const { offset, bytes } = filter.memcmp
    if (offset + bytes.length > data.length) return false
    return bytes.every((byte, i) => data[offset + i] === byte)
  })
}
