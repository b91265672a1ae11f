import type { ReadonlyUint8Array } from '@solana/kit'
import { toBase58 } from './codec.ts'

export const TOKEN_PROGRAM_ID = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA'
export const TOKEN_2022_PROGRAM_ID = 'TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb'
export const TOKEN_PROGRAMS = new Set([TOKEN_PROGRAM_ID, TOKEN_2022_PROGRAM_ID])

const TOKEN_ACCOUNT_SIZE = 165
const MINT_SIZE = 82
/** Token-2022 accounts with extensions carry an account-type byte right after the 165-byte base. */
const ACCOUNT_TYPE_OFFSET = 165
const ACCOUNT_TYPE_MINT = 1
const ACCOUNT_TYPE_ACCOUNT = 2

export interface TokenAccountData {
  mint: string
  owner: string
  amount: bigint
  delegate: string | null
  state: 'uninitialized' | 'initialized' | 'frozen'
  /** Rent-exempt reserve of a wrapped-SOL account; null when not native. */
  isNative: bigint | null
  delegatedAmount: bigint
  closeAuthority: string | null
}

export interface MintData {
  mintAuthority: string | null
  supply: bigint
  decimals: number
  isInitialized: boolean
  freezeAuthority: string | null
}

export interface UiTokenAmount {
  amount: string
  decimals: number
  uiAmount: number
  uiAmountString: string
}

function view(data: ReadonlyUint8Array): DataView {
  return new DataView(data.buffer, data.byteOffset, data.byteLength)
}

function optionalKey(data: ReadonlyUint8Array, offset: number): string | null {
  return view(data).getUint32(offset, true) === 0 ? null : toBase58(data.subarray(offset + 4, offset + 36))
}

function isTokenAccountLayout(data: ReadonlyUint8Array, programId: string): boolean {
  if (data.length === TOKEN_ACCOUNT_SIZE) return true
  return (
    programId === TOKEN_2022_PROGRAM_ID &&
    data.length > ACCOUNT_TYPE_OFFSET &&
    data[ACCOUNT_TYPE_OFFSET] === ACCOUNT_TYPE_ACCOUNT
  )
}

function isMintLayout(data: ReadonlyUint8Array, programId: string): boolean {
  if (data.length === MINT_SIZE) return true
  return (
    programId === TOKEN_2022_PROGRAM_ID &&
    data.length > ACCOUNT_TYPE_OFFSET &&
    data[ACCOUNT_TYPE_OFFSET] === ACCOUNT_TYPE_MINT
  )
}

/** Decodes an initialized SPL Token (or Token-2022 base) account; null for anything else. */
export function decodeTokenAccount(owner: string, data: ReadonlyUint8Array): TokenAccountData | null {
  if (!TOKEN_PROGRAMS.has(owner) || !isTokenAccountLayout(data, owner)) return null
  const v = view(data)
  const stateByte = data[108]
  if (stateByte === undefined || stateByte === 0 || stateByte > 2) return null
  return {
    mint: toBase58(data.subarray(0, 32)),
    owner: toBase58(data.subarray(32, 64)),
    amount: v.getBigUint64(64, true),
    delegate: optionalKey(data, 72),
    state: stateByte === 2 ? 'frozen' : 'initialized',
    isNative: v.getUint32(109, true) === 0 ? null : v.getBigUint64(113, true),
    delegatedAmount: v.getBigUint64(121, true),
    closeAuthority: optionalKey(data, 129),
  }
}

/** Decodes an initialized SPL Token (or Token-2022 base) mint; null for anything else. */
export function decodeMint(owner: string, data: ReadonlyUint8Array): MintData | null {
  if (!TOKEN_PROGRAMS.has(owner) || !isMintLayout(data, owner)) return null
  const v = view(data)
  const isInitialized = data[45] === 1
  if (!isInitialized) return null
  return {
    mintAuthority: optionalKey(data, 0),
    supply: v.getBigUint64(36, true),
    decimals: data[44] ?? 0,
    isInitialized,
    freezeAuthority: optionalKey(data, 46),
  }
}

/** Agave's real_number_string_trimmed: "1.5" for 1_500_000 with 6 decimals, "0" for zero. */
export function uiAmountString(amount: bigint, decimals: number): string {
  if (decimals === 0) return amount.toString()
  const padded = amount.toString().padStart(decimals + 1, '0')
  const text = `${padded.slice(0, -decimals)}.${padded.slice(-decimals)}`
  return text.replace(/0+$/, '').replace(/\.$/, '')
}

export function uiTokenAmount(amount: bigint, decimals: number): UiTokenAmount {
  return {
    amount: amount.toString(),
    decimals,
    uiAmount: Number(amount) / 10 ** decimals,
    uiAmountString: uiAmountString(amount, decimals),
  }
}

/** The 'spl-token' jsonParsed form of a token account (as getAccountInfo with jsonParsed returns it). */
export function parsedTokenAccountInfo(account: TokenAccountData, decimals: number): Record<string, unknown> {
  const info: Record<string, unknown> = {
    isNative: account.isNative !== null,
    mint: account.mint,
    owner: account.owner,
    state: account.state,
    tokenAmount: uiTokenAmount(account.amount, decimals),
  }
  if (account.delegate !== null) {
    info.delegate = account.delegate
    info.delegatedAmount = uiTokenAmount(account.delegatedAmount, decimals)
  }
  if (account.isNative !== null) info.rentExemptReserve = uiTokenAmount(account.isNative, decimals)
  if (account.closeAuthority !== null) info.closeAuthority = account.closeAuthority
  return info
}

export function parsedMintInfo(mint: MintData): Record<string, unknown> {
  return {
    decimals: mint.decimals,
    freezeAuthority: mint.freezeAuthority,
    isInitialized: mint.isInitialized,
    mintAuthority: mint.mintAuthority,
    supply: mint.supply.toString(),
  }
}

export function tokenProgramLabel(programId: string): string {
  return programId === TOKEN_2022_PROGRAM_ID ? 'spl-token-2022' : 'spl-token'
}
