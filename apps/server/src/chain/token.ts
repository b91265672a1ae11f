import { type Address, address, getBase64Encoder } from '@solana/kit'
import { fetchMaybeToken, findAssociatedTokenPda, TOKEN_PROGRAM_ADDRESS } from '@solana-program/token'
import type { Chain } from './rpc.ts'

/** The Token-2022 program (Token Extensions): same TransferChecked layout as the classic program, its own accounts. */
export const TOKEN_2022_PROGRAM_ADDRESS = address('TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb')
export const TOKEN_PROGRAMS: readonly Address[] = [TOKEN_PROGRAM_ADDRESS, TOKEN_2022_PROGRAM_ADDRESS]

export interface MintInfo {
  /** The program that owns the mint: every token account and instruction of this mint is on it. */
  program: Address
  decimals: number
  /** Token-2022 extensions on the mint, by type number (1 = TransferFeeConfig). */
  extensions: number[]
}

/** Token-2022 extension types the platform cannot take: a transfer fee would credit less than the transfer says. */
export const REFUSED_EXTENSIONS: Record<number, string> = { 1: 'a transfer fee (TransferFeeConfig extension)' }

const MINT_SIZE = 82
/** Token-2022 mints with extensions: padding to 165 bytes, an account-type byte (1 = mint), then type-length-value. */
const ACCOUNT_TYPE_OFFSET = 165

/** Reads a mint account: its program, decimals and Token-2022 extensions. Throws when it is not a token mint. */
export async function readMint(chain: Chain, mint: string): Promise<MintInfo> {
  const { value } = await chain.rpc
    .getAccountInfo(address(mint), { encoding: 'base64', commitment: chain.commitment })
    .send()
  if (!value) throw new Error(`mint ${mint} does not exist on the cluster`)
  if (!TOKEN_PROGRAMS.includes(value.owner)) throw new Error(`${mint} is not a token mint (owned by ${value.owner})`)
  const data = getBase64Encoder().encode(value.data[0])
  const mintLayout = data.length === MINT_SIZE || (data.length > ACCOUNT_TYPE_OFFSET && data[ACCOUNT_TYPE_OFFSET] === 1)
  if (!mintLayout || data[45] !== 1) throw new Error(`${mint} is a token account, not an initialized mint`)
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength)
  const extensions: number[] = []
  for (let at = ACCOUNT_TYPE_OFFSET + 1; at + 4 <= data.length; ) {
    const type = view.getUint16(at, true)
    if (type !== 0) extensions.push(type) // 0: uninitialized padding
    at += 4 + view.getUint16(at + 2, true)
  }
  return { program: value.owner, decimals: data[44] as number, extensions }
}

const programs = new WeakMap<Chain, Map<string, Promise<Address>>>()

/** The token program of a mint (never changes, so it is read once per process). */
export function tokenProgramOf(chain: Chain, mint: string): Promise<Address> {
  const known = programs.get(chain) ?? new Map<string, Promise<Address>>()
  programs.set(chain, known)
  let program = known.get(mint)
  if (!program) {
    program = readMint(chain, mint).then((info) => info.program)
    program.catch(() => known.delete(mint)) // a failed read is tried again next time
    known.set(mint, program)
  }
  return program
}

/** The associated token account of `owner` for `mint` under the mint's token program (classic unless given). */
export async function associatedTokenAddress(
  owner: string,
  mint: string,
  tokenProgram: Address = TOKEN_PROGRAM_ADDRESS,
): Promise<Address> {
  const [ata] = await findAssociatedTokenPda({ owner: address(owner), mint: address(mint), tokenProgram })
  return ata
}

/** The associated token account of `owner` for `mint`, derived with the program that owns the mint. */
export async function ownerTokenAccount(chain: Chain, owner: string, mint: string): Promise<Address> {
  return associatedTokenAddress(owner, mint, await tokenProgramOf(chain, mint))
}

/** The balance in base units of a token account (either program), or null when the account does not exist. */
export async function tokenBalance(chain: Chain, tokenAccount: string): Promise<bigint | null> {
  const account = await fetchMaybeToken(chain.rpc, address(tokenAccount), { commitment: chain.commitment })
  return account.exists ? account.data.amount : null
}

/** The balance of `owner`'s associated token account for `mint`, or null when that account does not exist. */
export async function ownerTokenBalance(chain: Chain, owner: string, mint: string): Promise<bigint | null> {
  return tokenBalance(chain, await ownerTokenAccount(chain, owner, mint))
}

/**
 * The balances of `owner`'s associated token accounts for each of `mints` (0 where the account does not exist), all
 * read in one getMultipleAccounts call, and the slot the node answered them at: one consistent view of the chain.
 */
export async function ownerTokenBalancesAt(
  chain: Chain,
  holdings: { owner: string; mint: string }[],
): Promise<{ slot: bigint; balances: bigint[] }> {
  const accounts = await Promise.all(holdings.map(({ owner, mint }) => ownerTokenAccount(chain, owner, mint)))
  const { context, value } = await chain.rpc
    .getMultipleAccounts(accounts, { encoding: 'base64', commitment: chain.commitment })
    .send()
  const balances = value.map((account) => {
    if (!account) return 0n
    // The token account layout of both programs: mint (32), owner (32), amount (u64 little-endian).
    const data = getBase64Encoder().encode(account.data[0])
    return new DataView(data.buffer, data.byteOffset, data.byteLength).getBigUint64(64, true)
  })
  return { slot: context.slot, balances }
}
