import {
  createAssociatedTokenAccountIdempotentInstruction,
  createTransferCheckedInstruction,
  getAssociatedTokenAddressSync,
} from '@solana/spl-token'
import { Keypair, PublicKey, Transaction } from '@solana/web3.js'
import { api, type PaymentIntent } from '@solpledge/contract'
import { callAs, expect, rpc, type Wallet } from './fixtures.ts'

/**
 * Tops up the platform balance through the API and the local chain, as the web app's top-up does, but faster: for
 * journeys whose subject is not the top-up (assets.spec.ts and live.spec.ts tap through it). The wallet first gets the
 * faucet's test tokens (1,000 of each), unless `faucet` is false.
 */
export async function topUp(
  wallet: Wallet,
  session: Record<string, string>,
  coin: string,
  amount: bigint,
  { faucet = true }: { faucet?: boolean } = {},
) {
  if (faucet) {
    const given = await callAs(session, api.faucet.path, {})
    if (given.code !== 1) throw new Error(`faucet: ${given.msg}`)
  }
  const created = await callAs(session, api.intentCreate.path, { purpose: 'recharge', coin, amount: amount.toString() })
  if (created.code !== 1) throw new Error(`intent: ${created.msg}`)
  const intent = created.data as unknown as PaymentIntent
  const payer = Keypair.fromSeed(wallet.seed)
  const mint = new PublicKey(intent.mint)
  const owner = new PublicKey(intent.recipient)
  const to = getAssociatedTokenAddressSync(mint, owner, true)
  const transfer = createTransferCheckedInstruction(
    getAssociatedTokenAddressSync(mint, payer.publicKey),
    mint,
    to,
    payer.publicKey,
    BigInt(intent.amount),
    intent.decimals,
  )
  transfer.keys.push({ pubkey: new PublicKey(intent.reference), isSigner: false, isWritable: false })
  const tx = new Transaction().add(
    createAssociatedTokenAccountIdempotentInstruction(payer.publicKey, to, owner, mint),
    transfer,
  )
  const { blockhash } = (
    (await rpc('getLatestBlockhash', [{ commitment: 'confirmed' }])) as { value: { blockhash: string } }
  ).value
  tx.recentBlockhash = blockhash
  tx.feePayer = payer.publicKey
  tx.sign(payer)
  const signature = (await rpc('sendTransaction', [
    tx.serialize().toString('base64'),
    { encoding: 'base64' },
  ])) as string
  // The server verifies the payment by RPC: its answer is 'not confirmed yet' until the chain has confirmed it.
  await expect
    .poll(async () => (await callAs(session, api.intentSubmit.path, { id: intent.id, signature })).code, {
      timeout: 30_000,
    })
    .toBe(1)
}
