import { type Address, address } from '@solana/kit'
import { fetchMaybeToken, findAssociatedTokenPda, TOKEN_PROGRAM_ADDRESS } from '@solana-program/token'
import type { Chain } from './rpc.ts'

/** The associated token account of `owner` for `mint` under the classic SPL Token program. */
export async function associatedTokenAddress(owner: string, mint: string): Promise<Address> {
  const [ata] = await findAssociatedTokenPda({
    owner: address(owner),
    mint: address(mint),
    tokenProgram: TOKEN_PROGRAM_ADDRESS,
  })
  return ata
}

/** The balance in base units of a token account, or null when the account does not exist. */
export async function tokenBalance(chain: Chain, tokenAccount: string): Promise<bigint | null> {
  const account = await fetchMaybeToken(chain.rpc, address(tokenAccount), { commitment: chain.commitment })
  return account.exists ? account.data.amount : null
}

/** The balance of `owner`'s associated token account for `mint`, or null when that account does not exist. */
export async function ownerTokenBalance(chain: Chain, owner: string, mint: string): Promise<bigint | null> {
  return tokenBalance(chain, await associatedTokenAddress(owner, mint))
}
