import '../wallet/buffer-global.ts'
import {
  ACCOUNT_SIZE,
  ExtensionType,
  getAccountLen,
  getAssociatedTokenAddressSync,
  TOKEN_2022_PROGRAM_ID,
  TOKEN_PROGRAM_ID,
  unpackAccount,
} from '@solana/spl-token'
import type { AccountInfo, PublicKey } from '@solana/web3.js'

/**
 * The program that owns a mint account: the classic SPL Token program or Token-2022. Every token account and transfer
 * of the mint is on it. Throws when the account is missing or no token program owns it.
 */
export function mintProgram(mintInfo: AccountInfo<Buffer> | null): PublicKey {
  const owner = mintInfo?.owner
  if (!owner || !(owner.equals(TOKEN_PROGRAM_ID) || owner.equals(TOKEN_2022_PROGRAM_ID)))
    throw new Error('The intent names a mint that no token program owns')
  return owner
}

/** The two token programs a mint may belong to: classic SPL Token and Token-2022. */
export const TOKEN_PROGRAMS: readonly PublicKey[] = [TOKEN_PROGRAM_ID, TOKEN_2022_PROGRAM_ID]

/** The owner's associated token account for a mint, under the mint's token program (classic unless given). */
export const associatedTokenAccount = (mint: PublicKey, owner: PublicKey, tokenProgram: PublicKey = TOKEN_PROGRAM_ID) =>
  getAssociatedTokenAddressSync(mint, owner, true, tokenProgram)

/** The size of a new associated token account (a Token-2022 one carries the ImmutableOwner extension). */
export const tokenAccountSize = (tokenProgram: PublicKey) =>
  tokenProgram.equals(TOKEN_2022_PROGRAM_ID) ? getAccountLen([ExtensionType.ImmutableOwner]) : ACCOUNT_SIZE

/** The balance in base units held by a token account of either program, or null when the account does not exist. */
export function readTokenAmount(address: PublicKey, info: AccountInfo<Buffer> | null): bigint | null {
  return info ? unpackAccount(address, info, info.owner).amount : null
}
