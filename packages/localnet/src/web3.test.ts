import {
  createAssociatedTokenAccountIdempotentInstruction,
  createTransferCheckedInstruction,
  getAssociatedTokenAddressSync,
  TOKEN_PROGRAM_ID,
} from '@solana/spl-token'
import {
  AddressLookupTableProgram,
  ComputeBudgetProgram,
  Connection,
  Keypair,
  LAMPORTS_PER_SOL,
  PublicKey,
  SendTransactionError,
  SystemProgram,
  sendAndConfirmTransaction,
  Transaction,
  TransactionMessage,
  VersionedTransaction,
} from '@solana/web3.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { WebSocket } from 'ws'
import { type Localnet, startLocalnet } from './index.ts'
import { rpcCall, rpcResult, sleep, slotAfter, withTimeout } from './test-helpers.ts'

let localnet: Localnet
let connection: Connection
let payer: Keypair

async function funded(sol: number): Promise<Keypair> {
  const keypair = Keypair.generate()
  await localnet.faucet(keypair.publicKey.toBase58(), { sol: BigInt(sol * LAMPORTS_PER_SOL) })
  return keypair
}

function plg() {
  const token = localnet.tokens.find((t) => t.symbol === 'PLG')
  if (!token) throw new Error('PLG missing')
  return { mint: new PublicKey(token.mint), decimals: token.decimals }
}

beforeAll(async () => {
  localnet = await startLocalnet({ port: 0, slotMs: 50 })
  connection = new Connection(localnet.rpcUrl, { commitment: 'confirmed', wsEndpoint: localnet.wsUrl })
  payer = await funded(10)
})

afterAll(async () => {
  await localnet?.close()
})

describe('localnet with @solana/web3.js v1', () => {
  it('serves cluster info and blockhashes valid for 150 blocks', async () => {
    expect(await connection.getVersion()).toHaveProperty('solana-core')
    expect(await rpcResult(localnet.rpcUrl, 'getHealth')).toBe('ok')
    const { blockhash, lastValidBlockHeight } = await connection.getLatestBlockhash()
    const height = await connection.getBlockHeight()
    expect(lastValidBlockHeight - height).toBeGreaterThan(140)
    expect(lastValidBlockHeight - height).toBeLessThanOrEqual(150)
    expect((await connection.isBlockhashValid(blockhash)).value).toBe(true)
    const epoch = await connection.getEpochInfo()
    expect(epoch.absoluteSlot).toBeGreaterThanOrEqual(height)
    const slot = await connection.getSlot()
    const next = await slotAfter(connection, slot)
    expect(await connection.getSlot()).toBeGreaterThanOrEqual(next)
  })

  it('requestAirdrop lands and confirmTransaction resolves', async () => {
    const target = Keypair.generate().publicKey
    const latest = await connection.getLatestBlockhash()
    const signature = await connection.requestAirdrop(target, 2 * LAMPORTS_PER_SOL)
    const confirmation = await connection.confirmTransaction({ signature, ...latest })
    expect(confirmation.value.err).toBeNull()
    expect(await connection.getBalance(target)).toBe(2 * LAMPORTS_PER_SOL)
  })

  it('sendAndConfirmTransaction transfers SOL; getTransaction shows fee and balances', async () => {
    const recipient = Keypair.generate().publicKey
    const tx = new Transaction().add(
      SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: recipient, lamports: LAMPORTS_PER_SOL }),
    )
    const signature = await sendAndConfirmTransaction(connection, tx, [payer])
    expect(await connection.getBalance(recipient)).toBe(LAMPORTS_PER_SOL)

    const fetched = await connection.getTransaction(signature, { maxSupportedTransactionVersion: 0 })
    expect(fetched).not.toBeNull()
    const meta = fetched?.meta
    expect(meta?.err).toBeNull()
    expect(meta?.fee).toBe(5000)
    const payerIndex = 0
    const recipientIndex = fetched?.transaction.message.staticAccountKeys.findIndex((k) => k.equals(recipient)) ?? -1
    expect(recipientIndex).toBeGreaterThan(0)
    expect((meta?.preBalances[payerIndex] ?? 0) - (meta?.postBalances[payerIndex] ?? 0)).toBe(LAMPORTS_PER_SOL + 5000)
    expect(meta?.preBalances[recipientIndex]).toBe(0)
    expect(meta?.postBalances[recipientIndex]).toBe(LAMPORTS_PER_SOL)
    expect(meta?.logMessages?.[0]).toContain('invoke [1]')
    expect(fetched?.version).toBe('legacy')
    expect(fetched?.blockTime).toBeGreaterThan(1_600_000_000)

    const statuses = await connection.getSignatureStatuses([signature])
    expect(statuses.value[0]?.confirmationStatus).toBe('finalized')
    expect(statuses.value[0]?.err).toBeNull()
    expect(await connection.getTransaction('1'.repeat(64), { maxSupportedTransactionVersion: 0 })).toBeNull()
  })

  it('reports the fee the runtime charged, including prioritization fees', async () => {
    const cases = [
      { instructions: [], fee: 5000 },
      {
        instructions: [
          ComputeBudgetProgram.setComputeUnitPrice({ microLamports: 1000 }),
          ComputeBudgetProgram.setComputeUnitLimit({ units: 200_000 }),
        ],
        fee: 5200,
      },
      // Without a limit, each builtin instruction reserves 3000 units: 2 × 3000 units at 1 lamport each.
      { instructions: [ComputeBudgetProgram.setComputeUnitPrice({ microLamports: 1_000_000 })], fee: 11_000 },
    ]
    for (const { instructions, fee } of cases) {
      const before = await connection.getBalance(payer.publicKey)
      const tx = new Transaction().add(
        ...instructions,
        SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: payer.publicKey, lamports: 1 }),
      )
      const signature = await sendAndConfirmTransaction(connection, tx, [payer])
      const charged = before - (await connection.getBalance(payer.publicKey))
      const fetched = await connection.getTransaction(signature, { maxSupportedTransactionVersion: 0 })
      expect(charged).toBe(fee)
      expect(fetched?.meta?.fee).toBe(fee)
    }
  })

  it('SPL TransferChecked creating the recipient ATA records pre/post token balances', async () => {
    const { mint, decimals } = plg()
    const sender = await funded(1)
    await localnet.faucet(sender.publicKey.toBase58(), { tokens: { PLG: 1000n * 10n ** 9n } })
    const recipient = Keypair.generate().publicKey
    const source = getAssociatedTokenAddressSync(mint, sender.publicKey)
    const destination = getAssociatedTokenAddressSync(mint, recipient)
    const amount = 12_500_000_000n // 12.5 PLG

    const tx = new Transaction().add(
      createAssociatedTokenAccountIdempotentInstruction(sender.publicKey, destination, recipient, mint),
      createTransferCheckedInstruction(source, mint, destination, sender.publicKey, amount, decimals),
    )
    const signature = await sendAndConfirmTransaction(connection, tx, [sender])

    const fetched = await connection.getTransaction(signature, { maxSupportedTransactionVersion: 0 })
    const keys = fetched?.transaction.message.staticAccountKeys ?? []
    const sourceIndex = keys.findIndex((k) => k.equals(source))
    const destinationIndex = keys.findIndex((k) => k.equals(destination))
    expect(fetched?.meta?.preTokenBalances).toEqual([
      {
        accountIndex: sourceIndex,
        mint: mint.toBase58(),
        owner: sender.publicKey.toBase58(),
        programId: TOKEN_PROGRAM_ID.toBase58(),
        uiTokenAmount: { amount: '1000000000000', decimals: 9, uiAmount: 1000, uiAmountString: '1000' },
      },
    ])
    const post = [...(fetched?.meta?.postTokenBalances ?? [])].sort((a, b) => a.accountIndex - b.accountIndex)
    expect(post).toEqual(
      [
        {
          accountIndex: sourceIndex,
          mint: mint.toBase58(),
          owner: sender.publicKey.toBase58(),
          programId: TOKEN_PROGRAM_ID.toBase58(),
          uiTokenAmount: { amount: '987500000000', decimals: 9, uiAmount: 987.5, uiAmountString: '987.5' },
        },
        {
          accountIndex: destinationIndex,
          mint: mint.toBase58(),
          owner: recipient.toBase58(),
          programId: TOKEN_PROGRAM_ID.toBase58(),
          uiTokenAmount: { amount: '12500000000', decimals: 9, uiAmount: 12.5, uiAmountString: '12.5' },
        },
      ].sort((a, b) => a.accountIndex - b.accountIndex),
    )
    // The ATA program creates the account through inner instructions.
    expect(fetched?.meta?.innerInstructions?.length).toBeGreaterThan(0)

    const history = await connection.getSignaturesForAddress(destination)
    expect(history.map((h) => h.signature)).toEqual([signature])
    expect(history[0]?.err).toBeNull()
    const senderHistory = await connection.getSignaturesForAddress(sender.publicKey, { limit: 10 })
    expect(senderHistory[0]?.signature).toBe(signature)
    expect(senderHistory.length).toBeGreaterThanOrEqual(3) // SOL faucet, token faucet, transfer

    const parsed = await connection.getParsedTokenAccountsByOwner(recipient, { mint })
    expect(parsed.value).toHaveLength(1)
    expect(parsed.value[0]?.pubkey.equals(destination)).toBe(true)
    expect(parsed.value[0]?.account.data.program).toBe('spl-token')
    expect(parsed.value[0]?.account.data.parsed).toEqual({
      type: 'account',
      info: {
        isNative: false,
        mint: mint.toBase58(),
        owner: recipient.toBase58(),
        state: 'initialized',
        tokenAmount: { amount: '12500000000', decimals: 9, uiAmount: 12.5, uiAmountString: '12.5' },
      },
    })
    const byProgram = await connection.getTokenAccountsByOwner(recipient, { programId: TOKEN_PROGRAM_ID })
    expect(byProgram.value[0]?.account.data.length).toBe(165)
    expect((await connection.getTokenAccountBalance(destination)).value.uiAmountString).toBe('12.5')

    const parsedMint = await connection.getParsedAccountInfo(mint)
    const mintData = parsedMint.value?.data as { parsed: { type: string; info: { decimals: number } } }
    expect(mintData.parsed.type).toBe('mint')
    expect(mintData.parsed.info.decimals).toBe(9)
    const supply = await connection.getTokenSupply(mint)
    expect(BigInt(supply.value.amount)).toBeGreaterThanOrEqual(1000n * 10n ** 9n)

    const parsedTx = await connection.getParsedTransaction(signature, { maxSupportedTransactionVersion: 0 })
    const transferIx = parsedTx?.transaction.message.instructions[1] as {
      program: string
      parsed: { type: string; info: Record<string, unknown> }
    }
    expect(transferIx.program).toBe('spl-token')
    expect(transferIx.parsed.type).toBe('transferChecked')
    expect(transferIx.parsed.info.tokenAmount).toEqual({
      amount: '12500000000',
      decimals: 9,
      uiAmount: 12.5,
      uiAmountString: '12.5',
    })
  })

  it('onAccountChange notifies about a balance change', async () => {
    const watched = Keypair.generate().publicKey
    const notified = new Promise<number>((resolve) => {
      const id = connection.onAccountChange(watched, (account) => {
        void connection.removeAccountChangeListener(id)
        resolve(account.lamports)
      })
    })
    // web3.js subscribes in the background: keep changing the account until the subscription is live.
    let sent = 0
    let lamports: number | undefined
    const deadline = Date.now() + 5000
    while (lamports === undefined && Date.now() < deadline) {
      const tx = new Transaction().add(
        SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: watched, lamports: LAMPORTS_PER_SOL }),
      )
      await sendAndConfirmTransaction(connection, tx, [payer])
      sent += 1
      lamports = await Promise.race([notified, sleep(300).then(() => undefined)])
    }
    expect(lamports).toBeDefined()
    // The notification carries the account state after one of the transfers.
    expect((lamports ?? 0) % LAMPORTS_PER_SOL).toBe(0)
    expect(lamports).toBeGreaterThanOrEqual(LAMPORTS_PER_SOL)
    expect(lamports).toBeLessThanOrEqual(sent * LAMPORTS_PER_SOL)
  })

  it('a failing transfer sent with skipPreflight lands with its error and pays the fee', async () => {
    const poor = await funded(0.01)
    const before = await connection.getBalance(poor.publicKey)
    const latest = await connection.getLatestBlockhash()
    const tx = new Transaction({ feePayer: poor.publicKey, ...latest }).add(
      SystemProgram.transfer({
        fromPubkey: poor.publicKey,
        toPubkey: Keypair.generate().publicKey,
        lamports: LAMPORTS_PER_SOL,
      }),
    )
    tx.sign(poor)
    const signature = await connection.sendRawTransaction(tx.serialize(), { skipPreflight: true })
    // web3.js resolves with the error (signature notification) or rejects with it (status poll won the race).
    const confirmed = await connection.confirmTransaction({ signature, ...latest }).then(
      (confirmation) => confirmation.value.err,
      (error: unknown) => error,
    )
    expect(confirmed).toEqual({ InstructionError: [0, { Custom: 1 }] })

    const fetched = await connection.getTransaction(signature, { maxSupportedTransactionVersion: 0 })
    expect(fetched?.meta?.err).toEqual({ InstructionError: [0, { Custom: 1 }] })
    expect(fetched?.meta?.fee).toBe(5000)
    expect(fetched?.meta?.logMessages?.join('\n')).toContain('insufficient lamports')
    expect(await connection.getBalance(poor.publicKey)).toBe(before - 5000)
    const history = await connection.getSignaturesForAddress(poor.publicKey)
    expect(history[0]?.signature).toBe(signature)
    expect(history[0]?.err).toEqual({ InstructionError: [0, { Custom: 1 }] })
  })

  it('a failing preflight throws SendTransactionError with the simulation logs', async () => {
    const poor = await funded(0.01)
    const tx = new Transaction().add(
      SystemProgram.transfer({
        fromPubkey: poor.publicKey,
        toPubkey: Keypair.generate().publicKey,
        lamports: LAMPORTS_PER_SOL,
      }),
    )
    const error = await sendAndConfirmTransaction(connection, tx, [poor]).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(SendTransactionError)
    const sendError = error as SendTransactionError
    expect(sendError.transactionError.message).toBe(
      'Transaction simulation failed: Error processing Instruction 0: custom program error: 0x1',
    )
    expect(sendError.transactionError.logs?.join('\n')).toContain('insufficient lamports')
    // Nothing landed: only the faucet transfer is in the history.
    expect(await connection.getSignaturesForAddress(poor.publicKey)).toHaveLength(1)
  })

  it('refuses an unknown blockhash with "Blockhash not found"', async () => {
    const tx = new Transaction({
      feePayer: payer.publicKey,
      recentBlockhash: Keypair.generate().publicKey.toBase58(),
    }).add(SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: payer.publicKey, lamports: 1 }))
    tx.sign(payer)
    for (const skipPreflight of [false, true]) {
      const error = await connection.sendRawTransaction(tx.serialize(), { skipPreflight }).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(SendTransactionError)
      expect((error as SendTransactionError).transactionError.message).toBe(
        'Transaction simulation failed: Blockhash not found',
      )
    }
  })

  it('rejects a bad signature with the validator error code', async () => {
    const latest = await connection.getLatestBlockhash()
    const tx = new Transaction({ feePayer: payer.publicKey, ...latest }).add(
      SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: payer.publicKey, lamports: 1 }),
    )
    tx.sign(payer)
    const wire = tx.serialize()
    wire[10] = (wire[10] ?? 0) ^ 0xff // corrupt the signature
    const response = await rpcCall(localnet.rpcUrl, 'sendTransaction', [
      Buffer.from(wire).toString('base64'),
      { encoding: 'base64' },
    ])
    expect(response.error).toEqual({ code: -32003, message: 'Transaction signature verification failure' })
  })

  it('executes a v0 transaction that loads accounts from an address lookup table', async () => {
    const recipient = Keypair.generate().publicKey
    const slot = await connection.getSlot()
    const [create, table] = AddressLookupTableProgram.createLookupTable({
      authority: payer.publicKey,
      payer: payer.publicKey,
      recentSlot: slot,
    })
    const extend = AddressLookupTableProgram.extendLookupTable({
      lookupTable: table,
      authority: payer.publicKey,
      payer: payer.publicKey,
      addresses: [recipient],
    })
    await sendAndConfirmTransaction(connection, new Transaction().add(create, extend), [payer])
    // Addresses added in a slot become usable in the next one.
    await slotAfter(connection, await connection.getSlot())
    const lookup = (await connection.getAddressLookupTable(table)).value
    expect(lookup?.state.addresses.map((a) => a.toBase58())).toEqual([recipient.toBase58()])

    const latest = await connection.getLatestBlockhash()
    const message = new TransactionMessage({
      payerKey: payer.publicKey,
      recentBlockhash: latest.blockhash,
      instructions: [SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: recipient, lamports: 5_000_000 })],
    }).compileToV0Message(lookup ? [lookup] : [])
    const tx = new VersionedTransaction(message)
    tx.sign([payer])
    const signature = await connection.sendTransaction(tx)
    expect((await connection.confirmTransaction({ signature, ...latest })).value.err).toBeNull()
    expect(await connection.getBalance(recipient)).toBe(5_000_000)

    const fetched = await connection.getTransaction(signature, { maxSupportedTransactionVersion: 0 })
    expect(fetched?.version).toBe(0)
    expect(fetched?.meta?.loadedAddresses?.writable.map((k) => k.toBase58())).toEqual([recipient.toBase58()])
    expect(fetched?.meta?.postBalances.at(-1)).toBe(5_000_000)
    expect((await connection.getSignaturesForAddress(recipient))[0]?.signature).toBe(signature)

    // Like real RPC, a v0 transaction needs maxSupportedTransactionVersion.
    const legacyOnly = await rpcCall(localnet.rpcUrl, 'getTransaction', [signature, { encoding: 'json' }])
    expect((legacyOnly.error as { code: number }).code).toBe(-32015)
  })

  it('simulates unsigned transactions with replaceRecentBlockhash', async () => {
    const message = new TransactionMessage({
      payerKey: payer.publicKey,
      recentBlockhash: Keypair.generate().publicKey.toBase58(),
      instructions: [SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: payer.publicKey, lamports: 1 })],
    }).compileToV0Message()
    const tx = new VersionedTransaction(message)
    const stale = await connection.simulateTransaction(tx, { sigVerify: false })
    expect(stale.value.err).toBe('BlockhashNotFound')
    const simulated = await connection.simulateTransaction(tx, { sigVerify: false, replaceRecentBlockhash: true })
    expect(simulated.value.err).toBeNull()
    expect(simulated.value.unitsConsumed).toBeGreaterThan(0)
    const replacement = (simulated.value as { replacementBlockhash?: { blockhash: string } }).replacementBlockhash
    expect(replacement?.blockhash).toBeTruthy()
    const verifyFails = await rpcCall(localnet.rpcUrl, 'simulateTransaction', [
      Buffer.from(tx.serialize()).toString('base64'),
      { encoding: 'base64', sigVerify: true },
    ])
    expect((verifyFails.error as { code: number }).code).toBe(-32003)
  })
})

describe('JSON-RPC envelope', () => {
  it('answers batches and uses standard error codes', async () => {
    const response = await fetch(localnet.rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify([
        { jsonrpc: '2.0', id: 1, method: 'getSlot' },
        { jsonrpc: '2.0', id: 2, method: 'noSuchMethod' },
        { jsonrpc: '2.0', id: 3, method: 'getBalance', params: ['not-an-address'] },
        { jsonrpc: '2.0', id: 4, method: 'getBalance', params: [payer.publicKey.toBase58()] },
      ]),
    })
    const body = (await response.json()) as { id: number; result?: unknown; error?: { code: number } }[]
    expect(body.map((r) => r.id)).toEqual([1, 2, 3, 4])
    expect(typeof body[0]?.result).toBe('number')
    expect(body[1]?.error?.code).toBe(-32601)
    expect(body[2]?.error?.code).toBe(-32602)
    expect(body[3]?.result).toMatchObject({ context: { apiVersion: expect.any(String) }, value: expect.any(Number) })

    const parse = await fetch(localnet.rpcUrl, { method: 'POST', body: '{nope' })
    expect(((await parse.json()) as { error: { code: number } }).error.code).toBe(-32700)
    const health = await fetch(`${localnet.rpcUrl}/health`)
    expect(await health.text()).toBe('ok')
  })

  it('serves WebSocket subscriptions on the RPC port as well', async () => {
    const socket = new WebSocket(localnet.rpcUrl.replace('http', 'ws'))
    const messages: Record<string, unknown>[] = []
    const gotTwoSlots = new Promise<void>((resolve) => {
      socket.on('message', (data) => {
        messages.push(JSON.parse(data.toString()))
        if (messages.filter((m) => m.method === 'slotNotification').length >= 2) resolve()
      })
    })
    await new Promise((resolve) => socket.once('open', resolve))
    socket.send(JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'slotSubscribe' }))
    await withTimeout(gotTwoSlots, 5000, 'slot notifications')
    socket.close()
    const subscribed = messages.find((m) => m.id === 7)
    expect(typeof subscribed?.result).toBe('number')
    const [first, second] = messages
      .filter((m) => m.method === 'slotNotification')
      .map((m) => (m.params as { result: { slot: number; parent: number } }).result)
    expect(first?.parent).toBe((first?.slot ?? 0) - 1)
    expect(second?.slot).toBeGreaterThan(first?.slot ?? 0)
  })

  it('localnet_faucet and localnet_getTokens', async () => {
    const tokens = await rpcResult<{ symbol: string; mint: string; decimals: number }[]>(
      localnet.rpcUrl,
      'localnet_getTokens',
    )
    expect(tokens.map((t) => [t.symbol, t.decimals])).toEqual([
      ['PLG', 9],
      ['USDT', 6],
    ])
    const owner = Keypair.generate().publicKey
    const signatures = await rpcResult<string[]>(localnet.rpcUrl, 'localnet_faucet', [
      owner.toBase58(),
      { sol: '1500000000', tokens: { USDT: '2500000' } },
    ])
    expect(signatures).toHaveLength(2)
    expect(await connection.getBalance(owner)).toBe(1_500_000_000)
    const usdt = new PublicKey(tokens[1]?.mint ?? '')
    const ata = getAssociatedTokenAddressSync(usdt, owner)
    expect((await connection.getTokenAccountBalance(ata)).value.uiAmountString).toBe('2.5')
    const unknown = await rpcCall(localnet.rpcUrl, 'localnet_faucet', [owner.toBase58(), { tokens: { DOGE: '1' } }])
    expect((unknown.error as { code: number }).code).toBe(-32602)

    // Two identical requests at once would be the same transaction; the faucet makes both land.
    const other = Keypair.generate().publicKey.toBase58()
    const both = await Promise.all([
      localnet.faucet(other, { sol: 1_000_000n }),
      localnet.faucet(other, { sol: 1_000_000n }),
    ])
    expect(new Set(both.flat()).size).toBe(2)
    expect(await connection.getBalance(new PublicKey(other))).toBe(2_000_000)
  })
})
