import {
  type Address,
  appendTransactionMessageInstructions,
  assertIsTransactionWithBlockhashLifetime,
  createSolanaRpc,
  createSolanaRpcSubscriptions,
  createTransactionMessage,
  generateKeyPairSigner,
  getSignatureFromTransaction,
  type Instruction,
  type KeyPairSigner,
  lamports,
  pipe,
  type Signature,
  sendAndConfirmTransactionFactory,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
} from '@solana/kit'
import { getTransferSolInstruction } from '@solana-program/system'
import {
  findAssociatedTokenPda,
  getCreateAssociatedTokenIdempotentInstruction,
  getTransferCheckedInstruction,
  TOKEN_PROGRAM_ADDRESS,
} from '@solana-program/token'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Localnet, startLocalnet } from './index.ts'
import { withTimeout } from './test-helpers.ts'

let localnet: Localnet
let rpc: ReturnType<typeof createSolanaRpc>
let rpcSubscriptions: ReturnType<typeof createSolanaRpcSubscriptions>
let sendAndConfirm: ReturnType<typeof sendAndConfirmTransactionFactory>
let payer: KeyPairSigner

async function sendV0(feePayer: KeyPairSigner, instructions: Instruction[]): Promise<Signature> {
  const { value: latest } = await rpc.getLatestBlockhash().send()
  const message = pipe(
    createTransactionMessage({ version: 0 }),
    (m) => setTransactionMessageFeePayerSigner(feePayer, m),
    (m) => setTransactionMessageLifetimeUsingBlockhash(latest, m),
    (m) => appendTransactionMessageInstructions(instructions, m),
  )
  const tx = await signTransactionMessageWithSigners(message)
  assertIsTransactionWithBlockhashLifetime(tx)
  await sendAndConfirm(tx, { commitment: 'confirmed' })
  return getSignatureFromTransaction(tx)
}

function token(symbol: string) {
  const info = localnet.tokens.find((t) => t.symbol === symbol)
  if (!info) throw new Error(`${symbol} missing`)
  return { mint: info.mint as Address, decimals: info.decimals }
}

beforeAll(async () => {
  localnet = await startLocalnet({ port: 0, slotMs: 50 })
  rpc = createSolanaRpc(localnet.rpcUrl)
  rpcSubscriptions = createSolanaRpcSubscriptions(localnet.wsUrl)
  sendAndConfirm = sendAndConfirmTransactionFactory({ rpc, rpcSubscriptions })
  payer = await generateKeyPairSigner()
  await localnet.faucet(payer.address, { sol: 5_000_000_000n, tokens: { USDT: 100_000_000n } })
})

afterAll(async () => {
  await localnet?.close()
})

describe('localnet with @solana/kit', () => {
  it('sends and confirms a v0 SOL transfer through sendAndConfirmTransactionFactory', async () => {
    const recipient = await generateKeyPairSigner()
    const signature = await sendV0(payer, [
      getTransferSolInstruction({ source: payer, destination: recipient.address, amount: lamports(2_000_000n) }),
    ])
    const { value: balance } = await rpc.getBalance(recipient.address).send()
    expect(balance).toBe(2_000_000n)

    const fetched = await rpc
      .getTransaction(signature as Signature, { maxSupportedTransactionVersion: 0, encoding: 'json' })
      .send()
    expect(fetched?.version).toBe(0)
    expect(fetched?.meta?.fee).toBe(5000n)
    expect(fetched?.meta?.err).toBeNull()
    expect(fetched?.transaction.message.accountKeys).toContain(recipient.address)

    const { value: statuses } = await rpc.getSignatureStatuses([signature as Signature]).send()
    expect(statuses[0]?.confirmationStatus).toBe('finalized')
  })

  it('TransferChecked to a new associated token account shows token balances', async () => {
    const usdt = token('USDT')
    const recipient = await generateKeyPairSigner()
    const [source] = await findAssociatedTokenPda({
      owner: payer.address,
      mint: usdt.mint,
      tokenProgram: TOKEN_PROGRAM_ADDRESS,
    })
    const [destination] = await findAssociatedTokenPda({
      owner: recipient.address,
      mint: usdt.mint,
      tokenProgram: TOKEN_PROGRAM_ADDRESS,
    })
    const signature = await sendV0(payer, [
      getCreateAssociatedTokenIdempotentInstruction({
        payer,
        ata: destination,
        owner: recipient.address,
        mint: usdt.mint,
      }),
      getTransferCheckedInstruction({
        source,
        mint: usdt.mint,
        destination,
        authority: payer,
        amount: 7_250_000n,
        decimals: usdt.decimals,
      }),
    ])
    const fetched = await rpc
      .getTransaction(signature as Signature, { maxSupportedTransactionVersion: 0, encoding: 'json' })
      .send()
    const post = fetched?.meta?.postTokenBalances ?? []
    const received = post.find((b) => b.owner === recipient.address)
    expect(received?.mint).toBe(usdt.mint)
    expect(received?.uiTokenAmount.amount).toBe('7250000')
    expect(received?.uiTokenAmount.uiAmountString).toBe('7.25')
    expect(fetched?.meta?.preTokenBalances?.find((b) => b.owner === recipient.address)).toBeUndefined()
    const sent = post.find((b) => b.owner === payer.address)
    expect(sent?.uiTokenAmount.amount).toBe('92750000')

    const { value: accounts } = await rpc
      .getTokenAccountsByOwner(recipient.address, { mint: usdt.mint }, { encoding: 'jsonParsed' })
      .send()
    expect(accounts).toHaveLength(1)
    expect(accounts[0]?.pubkey).toBe(destination)
    expect(accounts[0]?.account.data.parsed.info.tokenAmount.amount).toBe('7250000')

    const history = await rpc.getSignaturesForAddress(recipient.address).send()
    expect(history.map((h) => h.signature)).toEqual([signature])
  })

  it('reports u64 values such as rentEpoch exactly', async () => {
    const { value: account } = await rpc.getAccountInfo(payer.address, { encoding: 'base64' }).send()
    // kit's types no longer declare rentEpoch, but validators still send it (u64::MAX for rent-exempt accounts).
    expect((account as unknown as { rentEpoch: bigint }).rentEpoch).toBe(18446744073709551615n)
    expect(account?.owner).toBe('11111111111111111111111111111111')
    expect(account?.data).toEqual(['', 'base64'])
    const { value: missing } = await rpc.getAccountInfo((await generateKeyPairSigner()).address).send()
    expect(missing).toBeNull()
  })

  it('streams slot notifications', async () => {
    const abort = new AbortController()
    const slots: bigint[] = []
    const notifications = await rpcSubscriptions.slotNotifications().subscribe({ abortSignal: abort.signal })
    await withTimeout(
      (async () => {
        for await (const notification of notifications) {
          slots.push(notification.slot)
          if (slots.length === 3) break
        }
      })(),
      5000,
      'slot notifications',
    )
    abort.abort()
    expect(slots[1]).toBeGreaterThan(slots[0] ?? 0n)
    expect(slots[2]).toBeGreaterThan(slots[1] ?? 0n)
  })

  it('streams jsonParsed account notifications when the faucet creates a token account', async () => {
    const usdt = token('USDT')
    const owner = (await generateKeyPairSigner()).address
    const [ata] = await findAssociatedTokenPda({ owner, mint: usdt.mint, tokenProgram: TOKEN_PROGRAM_ADDRESS })
    const abort = new AbortController()
    const notifications = await rpcSubscriptions
      .accountNotifications(ata, { encoding: 'jsonParsed', commitment: 'confirmed' })
      .subscribe({ abortSignal: abort.signal })
    const first = (async () => {
      for await (const notification of notifications) return notification
    })()
    await localnet.faucet(owner, { tokens: { USDT: 1_500_000n } })
    const notification = await withTimeout(first, 5000, 'account notification')
    abort.abort()
    const data = notification?.value.data as {
      program: string
      parsed: { type: string; info: Record<string, unknown> }
    }
    expect(data.program).toBe('spl-token')
    expect(data.parsed.type).toBe('account')
    expect(data.parsed.info.owner).toBe(owner)
    expect(data.parsed.info.tokenAmount).toEqual({
      amount: '1500000',
      decimals: 6,
      uiAmount: 1.5,
      uiAmountString: '1.5',
    })
  })

  it('notifies a signature subscription that was opened after the transaction landed', async () => {
    const [signature] = await localnet.faucet((await generateKeyPairSigner()).address, { sol: 1_000_000n })
    const abort = new AbortController()
    const notifications = await rpcSubscriptions
      .signatureNotifications(signature as Signature, { commitment: 'finalized' })
      .subscribe({ abortSignal: abort.signal })
    const notification = await withTimeout(
      (async () => {
        for await (const n of notifications) return n
      })(),
      5000,
      'signature notification',
    )
    abort.abort()
    expect(notification?.value).toEqual({ err: null })
  })
})
