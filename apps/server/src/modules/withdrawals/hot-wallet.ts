// Why the hot wallet cannot pay, in plain words, and an in-process gauge of it: the withdrawal sender diagnoses every
// payout the node refuses, the server logs it loudly, and the operator console's job status shows it.
import { formatAmount } from '@solpledge/contract'
import { ownerTokenBalance } from '../../chain/token.ts'
import type { HotWalletProblem, HotWalletStatus, Platform } from '../../platform.ts'

/** At most what a payout costs the hot wallet in lamports: the fee and the rent of the recipient's token account. */
export const PAYOUT_LAMPORTS = 5_000n + 2_039_280n

/**
 * Why the node refused the payout of `amount` base units of `asset` from the hot wallet (preflight said `refusal`):
 * SOL for fees first, then the token account, then the token balance; 'other' when all three look fine.
 */
export async function diagnosePayout(
  platform: Platform,
  asset: { code: string; mint: string; decimals: number },
  amount: bigint,
  refusal: string,
): Promise<HotWalletProblem> {
  const hot = platform.hotWallet.address
  const sweep = `send ${asset.code} to ${hot} (sweep it from the treasury ${platform.treasury.address})`
  try {
    const { value: lamports } = await platform.chain.rpc.getBalance(hot as never).send()
    if (lamports < PAYOUT_LAMPORTS) {
      const [held, needed] = [formatAmount(lamports, 9), formatAmount(PAYOUT_LAMPORTS, 9)]
      return {
        kind: 'sol',
        asset: 'SOL',
        held,
        needed,
        detail: `insufficient SOL for fees: the hot wallet ${hot} holds ${held} SOL, a payout needs up to ${needed} SOL; send SOL to ${hot}`,
      }
    }
    const tokens = await ownerTokenBalance(platform.chain, hot, asset.mint)
    const needed = formatAmount(amount, asset.decimals)
    if (tokens === null)
      return {
        kind: 'token_account',
        asset: asset.code,
        held: '0',
        needed,
        detail: `missing token account: the hot wallet ${hot} has no ${asset.code} account (mint ${asset.mint}); ${sweep}`,
      }
    if (tokens < amount) {
      const held = formatAmount(tokens, asset.decimals)
      return {
        kind: 'token_balance',
        asset: asset.code,
        held,
        needed,
        detail: `token balance too low: the hot wallet ${hot} holds ${held} ${asset.code}, a payout needs ${needed} ${asset.code}; ${sweep}`,
      }
    }
  } catch (error) {
    refusal = `${refusal} (the hot wallet's balances could not be read: ${(error as Error).message})`
  }
  return {
    kind: 'other',
    asset: asset.code,
    held: '',
    needed: formatAmount(amount, asset.decimals),
    detail: `the node refused the payout from the hot wallet ${hot}: ${refusal}`,
  }
}

/** Updates the gauge after a sender pass; says whether the problem is new, went away, or stands as before. */
export function recordHotWallet(
  status: HotWalletStatus,
  pass: { refused: number; sent: number; problem: HotWalletProblem | null },
): 'new' | 'recovered' | 'unchanged' {
  status.refusedTotal += pass.refused
  if (pass.problem) {
    const changed = status.problem?.kind !== pass.problem.kind || status.problem.asset !== pass.problem.asset
    if (!status.problem) status.since = new Date()
    status.problem = pass.problem
    return changed ? 'new' : 'unchanged'
  }
  if (pass.sent > 0 && status.problem) {
    status.problem = null
    status.since = null
    return 'recovered'
  }
  return 'unchanged'
}
