import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { getAssociatedTokenAddressSync } from '@solana/spl-token'
import {
  Connection,
  Keypair,
  LAMPORTS_PER_SOL,
  PublicKey,
  SendTransactionError,
  SystemProgram,
  sendAndConfirmTransaction,
  Transaction,
} from '@solana/web3.js'
import { afterEach, describe, expect, it } from 'vitest'
import { type Localnet, startLocalnet } from './index.ts'
import { rpcResult, sleep, withTimeout } from './test-helpers.ts'

const cleanup: (() => Promise<void>)[] = []
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn()
})

async function start(options: Parameters<typeof startLocalnet>[0]): Promise<Localnet> {
  const localnet = await startLocalnet({ port: 0, ...options })
  cleanup.push(() => localnet.close())
  return localnet
}

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'localnet-test-'))
  cleanup.push(() => rm(dir, { recursive: true, force: true }))
  return dir
}

function connect(localnet: Localnet): Connection {
  return new Connection(localnet.rpcUrl, { commitment: 'confirmed', wsEndpoint: localnet.wsUrl })
}

describe('blockhash expiry', () => {
  it('keeps blockhashes usable for 150 blocks, then refuses them with "Blockhash not found"', async () => {
    const localnet = await start({ slotMs: 5 })
    const connection = connect(localnet)
    const payer = Keypair.generate()
    await localnet.faucet(payer.publicKey.toBase58(), { sol: BigInt(LAMPORTS_PER_SOL) })

    const latest = await connection.getLatestBlockhash()
    const sign = (lamports: number) => {
      const tx = new Transaction({ feePayer: payer.publicKey, ...latest }).add(
        SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: Keypair.generate().publicKey, lamports }),
      )
      tx.sign(payer)
      return tx.serialize()
    }
    const early = sign(1_000_000)
    const late = sign(2_000_000)

    // Still valid after a few dozen blocks: older (not only the latest) blockhashes are accepted.
    while ((await connection.getBlockHeight()) < latest.lastValidBlockHeight - 120) await sleep(20)
    expect((await connection.getLatestBlockhash()).blockhash).not.toBe(latest.blockhash)
    const signature = await connection.sendRawTransaction(early)
    expect((await connection.getSignatureStatus(signature)).value?.err).toBeNull()

    while ((await connection.getBlockHeight()) <= latest.lastValidBlockHeight) await sleep(20)
    expect((await connection.isBlockhashValid(latest.blockhash)).value).toBe(false)
    for (const skipPreflight of [false, true]) {
      const error = await connection.sendRawTransaction(late, { skipPreflight }).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(SendTransactionError)
      expect((error as SendTransactionError).transactionError.message).toBe(
        'Transaction simulation failed: Blockhash not found',
      )
    }
    const fee = await rpcResult<{ value: number | null }>(localnet.rpcUrl, 'getFeeForMessage', [
      Transaction.from(late).serializeMessage().toString('base64'),
    ])
    expect(fee.value).toBeNull()
  })
})

describe('persistence', () => {
  it('keeps accounts, the transaction store and the demo tokens across a restart', async () => {
    const stateDir = await tempDir()
    const owner = Keypair.generate()
    const first = await startLocalnet({ port: 0, slotMs: 20, stateDir })
    let firstClosed = false
    cleanup.push(async () => {
      if (!firstClosed) await first.close()
    })
    const connection = connect(first)
    const [solSig, tokenSig] = await first.faucet(owner.publicKey.toBase58(), {
      sol: BigInt(2 * LAMPORTS_PER_SOL),
      tokens: { PLG: 5n * 10n ** 9n },
    })
    const recipient = Keypair.generate().publicKey
    const transfer = await sendAndConfirmTransaction(
      connection,
      new Transaction().add(
        SystemProgram.transfer({ fromPubkey: owner.publicKey, toPubkey: recipient, lamports: LAMPORTS_PER_SOL / 2 }),
      ),
      [owner],
    )
    const slotBefore = await connection.getSlot()
    const heightBefore = await connection.getBlockHeight()
    const balanceBefore = await connection.getBalance(owner.publicKey)
    const genesis = await connection.getGenesisHash()
    await first.close()
    firstClosed = true
    expect(existsSync(join(stateDir, 'localnet-state.json'))).toBe(true)
    expect(JSON.parse(await readFile(join(stateDir, 'localnet-state.json'), 'utf8')).format).toBe(1)

    const second = await start({ slotMs: 20, stateDir })
    const again = connect(second)
    expect(second.tokens).toEqual(first.tokens)
    expect(await again.getGenesisHash()).toBe(genesis)
    expect(await again.getSlot()).toBeGreaterThan(slotBefore)
    expect(await again.getBlockHeight()).toBeGreaterThan(heightBefore)
    expect(await again.getBalance(owner.publicKey)).toBe(balanceBefore)
    expect(await again.getBalance(recipient)).toBe(LAMPORTS_PER_SOL / 2)

    const plg = new PublicKey(second.tokens.find((t) => t.symbol === 'PLG')?.mint ?? '')
    const ata = getAssociatedTokenAddressSync(plg, owner.publicKey)
    expect((await again.getTokenAccountBalance(ata)).value.amount).toBe('5000000000')

    const minted = await again.getTransaction(tokenSig ?? '', { maxSupportedTransactionVersion: 0 })
    expect(minted?.meta?.postTokenBalances?.[0]?.uiTokenAmount.amount).toBe('5000000000')
    const history = await again.getSignaturesForAddress(owner.publicKey)
    expect(history.map((h) => h.signature)).toEqual([transfer, tokenSig, solSig])
    expect((await again.getSignatureStatuses([transfer], { searchTransactionHistory: true })).value[0]).not.toBeNull()

    // The restored chain keeps working: the faucet reuses the mint authority and the existing token account.
    await second.faucet(owner.publicKey.toBase58(), { tokens: { PLG: 10n ** 9n } })
    expect((await again.getTokenAccountBalance(ata)).value.amount).toBe('6000000000')
  })
})

describe('cli', () => {
  it('prints the ready line, serves RPC and writes the state on SIGTERM', async () => {
    const stateDir = await tempDir()
    const cli = fileURLToPath(new URL('./cli.ts', import.meta.url))
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', cli, '--port', '0', '--slot-ms', '50', '--state-dir', stateDir],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    )
    cleanup.push(async () => {
      if (child.exitCode === null) child.kill('SIGKILL')
    })
    const lines = createInterface({ input: child.stdout })
    const ready = await withTimeout(
      new Promise<string>((resolve) => lines.on('line', (line) => line.startsWith('localnet ready') && resolve(line))),
      30_000,
      'the ready line',
    )
    const match = /^localnet ready rpc=(http:\/\/\S+) ws=(ws:\/\/\S+)$/.exec(ready)
    expect(match).not.toBeNull()
    const rpcUrl = match?.[1] ?? ''
    expect(await rpcResult(rpcUrl, 'getHealth')).toBe('ok')
    const tokens = await rpcResult<{ symbol: string }[]>(rpcUrl, 'localnet_getTokens')
    expect(tokens.map((t) => t.symbol)).toEqual(['PLG', 'USDT'])

    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
    child.kill('SIGTERM')
    expect(await withTimeout(exited, 10_000, 'the CLI to exit')).toBe(0)
    expect(existsSync(join(stateDir, 'localnet-state.json'))).toBe(true)
  })
})
