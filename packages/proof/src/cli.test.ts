import { execFile } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import {
  AccountRole,
  address,
  appendTransactionMessageInstructions,
  createSolanaRpc,
  createTransactionMessage,
  generateKeyPairSigner,
  getBase64EncodedWireTransaction,
  getSignatureFromTransaction,
  type KeyPairSigner,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
} from '@solana/kit'
import { type Localnet, startLocalnet } from '@solpledge/localnet'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { main } from './cli.ts'
import { memoText } from './memo.ts'
import { type LiabilityProofData, toProofFile } from './proof.ts'
import { buildTree, randomAddress } from './test-helpers.ts'
import { verifyInclusion } from './verify.ts'

const MEMO_PROGRAM = address('MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr')
const root = path.resolve(fileURLToPath(import.meta.url), '../../../..')

let localnet: Localnet
let treasury: KeyPairSigner
let dir: string

/**
 * Sends one SPL Memo transaction signed (and paid) by `signer` on the local chain; resolves its signature. `failing`:
 * the memo names an account that does not sign, which the Memo program refuses: the transaction lands as failed.
 */
async function sendMemo(signer: KeyPairSigner, text: string, failing = false): Promise<string> {
  const rpc = createSolanaRpc(localnet.rpcUrl)
  const { value: blockhash } = await rpc.getLatestBlockhash().send()
  const message = pipe(
    createTransactionMessage({ version: 0 }),
    (m) => setTransactionMessageFeePayerSigner(signer, m),
    (m) => setTransactionMessageLifetimeUsingBlockhash(blockhash, m),
    (m) =>
      appendTransactionMessageInstructions(
        [
          {
            programAddress: MEMO_PROGRAM,
            accounts: failing ? [{ address: address(randomAddress()), role: AccountRole.READONLY }] : [],
            data: new TextEncoder().encode(text),
          },
        ],
        m,
      ),
  )
  const transaction = await signTransactionMessageWithSigners(message)
  await rpc
    .sendTransaction(getBase64EncodedWireTransaction(transaction), { encoding: 'base64', skipPreflight: failing })
    .send()
  return getSignatureFromTransaction(transaction)
}

const users = Array.from({ length: 6 }, (_, i) => ({
  address: randomAddress(),
  amounts: [BigInt(i + 1) * 1_500_000n, 0n],
}))
const tree = buildTree(users, { snapshotId: '3' })
let proof: LiabilityProofData

function writeFile(name: string, content: unknown): string {
  const file = path.join(dir, name)
  fs.writeFileSync(file, JSON.stringify(content, null, 2))
  return file
}

async function run(args: string[]) {
  const lines: string[] = []
  const code = await main(args, (line) => lines.push(line))
  return { code, output: lines.join('\n') }
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'solpledge-proof-'))
  localnet = await startLocalnet({ port: 0, slotMs: 50, tokens: [] })
  treasury = await generateKeyPairSigner()
  await localnet.faucet(treasury.address, { sol: 1_000_000_000n })
  const signature = await sendMemo(treasury, memoText('3', tree.root))
  proof = tree.proofAt(4, signature)
}, 60_000)

afterAll(async () => {
  await localnet?.close()
  if (dir) fs.rmSync(dir, { recursive: true, force: true })
})

describe('verifyInclusion against the local chain', () => {
  const request = () => ({ proof, address: users[4]?.address as string, rpcUrl: localnet.rpcUrl })

  it('reads the memo transaction and its signer, and accepts the proof', async () => {
    const result = await verifyInclusion({ ...request(), treasury: treasury.address })
    expect(result).toMatchObject({ ok: true, transaction: { signers: [treasury.address], err: null } })
    if (result.ok) expect(result.transaction.memos).toEqual([memoText('3', tree.root)])
  })

  it('refuses a memo signed by someone else than the treasury', async () => {
    const result = await verifyInclusion({ ...request(), treasury: randomAddress() })
    expect(result).toMatchObject({ ok: false, reason: 'signer' })
  })

  it("refuses a transaction that publishes another root, or another snapshot's id", async () => {
    const other = await sendMemo(treasury, memoText('4', tree.root))
    const result = await verifyInclusion({ ...request(), proof: { ...proof, signature: other } })
    expect(result).toMatchObject({ ok: false, reason: 'memoMismatch' })
    expect(result.ok ? '' : result.message).toContain("publishes snapshot 4's root")
  })

  it('refuses a memo transaction that failed on chain: it published nothing', async () => {
    const failed = await sendMemo(treasury, memoText('3', tree.root), true)
    const result = await verifyInclusion({ ...request(), proof: { ...proof, signature: failed } })
    expect(result).toMatchObject({ ok: false, reason: 'txFailed' })
  })

  it('refuses an unknown signature, an unpublished snapshot and an RPC that does not answer', async () => {
    const unknown = '1'.repeat(64)
    expect(await verifyInclusion({ ...request(), proof: { ...proof, signature: unknown } })).toMatchObject({
      reason: 'txNotFound',
    })
    expect(await verifyInclusion({ ...request(), proof: { ...proof, signature: null } })).toMatchObject({
      reason: 'unpublished',
    })
    // A port nothing listens on: the local chain's, once the test takes a closed one.
    const closed = await startLocalnet({ port: 0, slotMs: 50, tokens: [] })
    await closed.close()
    expect(await verifyInclusion({ ...request(), rpcUrl: closed.rpcUrl })).toMatchObject({ ok: false, reason: 'rpc' })
  })
})

describe('npm run verify-proof', () => {
  it('says VERIFIED and exits 0 for a downloaded proof, checking the treasury when told', async () => {
    const file = writeFile('proof.json', toProofFile(proof, users[4]?.address as string))
    const { code, output } = await run([file, '--rpc', localnet.rpcUrl, '--treasury', treasury.address])
    expect(output).toContain(`VERIFIED: ${users[4]?.address} is included in snapshot #3 with 7.5 USDT, 0 PLG`)
    expect(output).toContain(`signed by ${treasury.address}`)
    expect(code).toBe(0)
  })

  it.each([
    [
      'an amount',
      (p: LiabilityProofData) => {
        p.amounts[0] = '7600000'
      },
      'rootMismatch',
    ],
    [
      'the salt',
      (p: LiabilityProofData) => {
        p.salt = `${p.salt.slice(1)}0`
      },
      'rootMismatch',
    ],
    [
      'the root and its memo',
      (p: LiabilityProofData) => {
        p.root.sums[0] = '1'
      },
      'rootMismatch',
    ],
  ])('says NOT VERIFIED and exits 1 when %s was changed', async (_, change, reason) => {
    const tampered = structuredClone(proof)
    change(tampered)
    const file = writeFile('tampered.json', toProofFile(tampered, users[4]?.address as string))
    const { code, output } = await run([file, '--rpc', localnet.rpcUrl])
    expect(output).toContain(`NOT VERIFIED (${reason})`)
    expect(code).toBe(1)
  })

  it("refuses another user's address, a file that is not a proof and missing arguments", async () => {
    const file = writeFile('mine.json', toProofFile(proof, users[4]?.address as string))
    const other = await run([file, '--rpc', localnet.rpcUrl, '--address', users[1]?.address as string])
    expect(other.output).toContain(`is the proof of ${users[4]?.address}, not of ${users[1]?.address}`)
    expect(other.code).toBe(1)
    const broken = writeFile('broken.json', { ...proof, address: users[4]?.address, salt: 'x' })
    const notProof = await run([broken, '--rpc', localnet.rpcUrl])
    expect(notProof.output).toContain('is not a proof file: salt must be 64 lowercase hex digits')
    expect(notProof.code).toBe(1)
    expect(await run([file])).toMatchObject({ code: 1, output: expect.stringContaining('usage:') })
  })

  it('runs as the npm script: exit code 0 for the proof, 1 for a tampered one', async () => {
    const good = writeFile('script-good.json', toProofFile(proof, users[4]?.address as string))
    const bad = writeFile('script-bad.json', toProofFile({ ...proof, leaf_index: 5 }, users[4]?.address as string))
    const tsx = path.join(root, 'node_modules/.bin/tsx')
    const script = path.join(root, 'packages/proof/src/cli.ts')
    const exec = (file: string) =>
      promisify(execFile)(tsx, [script, file, '--rpc', localnet.rpcUrl]).then(
        ({ stdout }) => ({ code: 0, stdout }),
        (error: { code: number; stdout: string }) => ({ code: error.code, stdout: error.stdout }),
      )
    const [accepted, refused] = await Promise.all([exec(good), exec(bad)])
    expect(accepted.stdout).toContain('VERIFIED: ')
    expect(accepted.code).toBe(0)
    expect(refused.stdout).toContain('NOT VERIFIED (rootMismatch)')
    expect(refused.code).toBe(1)
  })
})
