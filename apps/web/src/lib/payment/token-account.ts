import '../wallet/buffer-global.ts'
import { getAssociatedTokenAddressSync, unpackAccount } from '@solana/spl-token'
import type { AccountInfo, PublicKey } from '@solana/web3.js'

/** The owner's associated token account for a mint (classic SPL Token program, as the server expects). */
export const associatedTokenAccount = (mint: PublicKey, owner: PublicKey) => getAssociatedTokenAddressSync(mint, owner)

/** The balance in base units held by a token account, or null when the account does not exist. */
export function readTokenAmount(address: PublicKey, info: AccountInfo<Buffer> | null): bigint | null {
  return info ? unpackAccount(address, info).amount : null
}
