// Proof of liabilities, the server side (docs/proof-of-liabilities-server.md): the v1 tree against an independent
// reference, proofs checked by a verifier written here (another code path than the server's), the root published on
// the local chain, a snapshot consistent at every point of a settlement and while trades run, the API's refusals and
// the operator trigger.
import { createHash, randomBytes } from 'node:crypto'
import { createKeyPairSignerFromBytes, getBase58Decoder, getBase58Encoder } from '@solana/kit'
import { api, Code, type LiabilityProof, type LiabilityRoot } from '@solpledge/contract'
import { verifyInclusion } from '@solpledge/proof'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { memoInstruction, prepareTransaction } from '../src/chain/payout.ts'
import { DEFAULT_BUSINESS_CONFIG } from '../src/modules/config/defaults.ts'
import { seedBusinessConfig } from '../src/modules/config/service.ts'
import { balances } from '../src/modules/ledger/service.ts'
import { liabilitiesJob, publishSnapshot, purgeOldSnapshots } from '../src/modules/liabilities/publish.ts'
import { inclusionProof, takeSnapshot } from '../src/modules/liabilities/snapshot.ts'
import { addressBytes, nodeBytes, SUBTREE_LEVELS, TreeBuilder } from '../src/modules/liabilities/tree.ts'
import { settleDay, settleThrough } from '../src/modules/settlement/service.ts'
import { signedInAdmin } from './admin.ts'
import { addDeposit, addStake, addUser, prng } from './fixtures/settlement.ts'
import { place, type Trader, trader } from './fixtures/trade.ts'
import { call, creditAvailable, dbKind, TestWallet } from './helpers.ts'
import { createChainApp } from './money.ts'

// ── An independent reference of format v1: createHash, bigint sums, recursion from the root down. ──
interface RefNode {
  hash: Buffer
  sums: bigint[]
}
const H = (...parts: (Buffer | string)[]) => {
  const h = createHash('sha256')
  for (const part of parts) h.update(typeof part === 'string' ? Buffer.from(part, 'utf8') : part)
  return h.digest()
}
const u128 = (value: bigint) => {
  const bytes = Buffer.alloc(16)
  let rest = value
  for (let i = 15; i >= 0; i--) {
    bytes[i] = Number(rest & 0xffn)
    rest >>= 8n
  }
  return bytes
}
const refLeaf = (address: Buffer, salt: Buffer, amounts: bigint[]): RefNode => ({
  hash: H('solpledge-pol-v1:leaf', H('solpledge-pol-v1:user', address, salt), ...amounts.map(u128)),
  sums: amounts,
})
const refParent = (left: RefNode, right: RefNode): RefNode => ({
  hash: H('solpledge-pol-v1:node', left.hash, ...left.sums.map(u128), right.hash, ...right.sums.map(u128)),
  sums: left.sums.map((sum, i) => sum + (right.sums[i] as bigint)),
})
const refEmpty = (assets: number): RefNode => ({ hash: Buffer.alloc(32), sums: Array(assets).fill(0n) })
/** Node `index` of `level` (0: the leaves), by recursion; the root is the first level of one node. */
function refNode(leaves: RefNode[], assets: number, level: number, index: number): RefNode {
  if (level === 0) return leaves[index] as RefNode
  const below = refSize(leaves.length, level - 1)
  const left = refNode(leaves, assets, level - 1, 2 * index)
  const right = 2 * index + 1 < below ? refNode(leaves, assets, level - 1, 2 * index + 1) : refEmpty(assets)
  return refParent(left, right)
}
const refSize = (leaves: number, level: number): number =>
  level === 0 ? leaves : Math.ceil(refSize(leaves, level - 1) / 2)
function refRoot(leaves: RefNode[], assets: number) {
  if (leaves.length === 0) return { root: refEmpty(assets), top: 0 }
  let top = 0
  while (refSize(leaves.length, top) > 1) top++
  return { root: refNode(leaves, assets, top, 0), top }
}
const json = (node: RefNode) => ({ hash: node.hash.toString('hex'), sums: node.sums.map(String) })
const fromJson = (node: { hash: string; sums: string[] }): RefNode => ({
  hash: Buffer.from(node.hash, 'hex'),
  sums: node.sums.map(BigInt),
})

/** The user's check: rebuild the leaf from the address, salt and amounts, climb the siblings, compare with the root. */
function verifies(proof: LiabilityProof, address: string): boolean {
  if (proof.amounts.length !== proof.assets.length) return false
  const raw = Buffer.from(getBase58Encoder().encode(address))
  let node = refLeaf(raw, Buffer.from(proof.salt, 'hex'), proof.amounts.map(BigInt))
  let index = proof.leaf_index
  for (const sibling of proof.siblings) {
    if (sibling.sums.length !== proof.assets.length) return false
    node = index % 2 === 0 ? refParent(node, fromJson(sibling)) : refParent(fromJson(sibling), node)
    index = Math.floor(index / 2)
  }
  return index === 0 && JSON.stringify(json(node)) === JSON.stringify(proof.root)
}

const decoder = getBase58Decoder()

describe('the v1 tree', () => {
  it('reads an address as its 32 raw bytes, as a base58 decoder does, and refuses anything else', () => {
    const encoder = getBase58Encoder()
    const decoder = getBase58Decoder()
    const samples = [Buffer.alloc(32), Buffer.alloc(32, 255), Buffer.concat([Buffer.alloc(3), randomBytes(29)])]
    for (let i = 0; i < 200; i++) samples.push(randomBytes(32))
    for (const bytes of samples) {
      const address = decoder.decode(bytes)
      expect(addressBytes(address).equals(Buffer.from(encoder.encode(address)))).toBe(true)
    }
    // A first byte of 0xff: one more digit can only overflow 32 bytes (with a small first byte `${valid}1` is the
    // canonical text of another 32-byte address, rightly read).
    const valid = decoder.decode(Buffer.concat([Buffer.from([0xff]), randomBytes(31)]))
    for (const bad of ['', 'abc', `${valid}1`, `1${valid}`, valid.replace(/.$/, '0'), decoder.decode(randomBytes(33))])
      expect(() => addressBytes(bad), bad).toThrow()
  })

  it('matches the reference on random inputs: every leaf, every root and every stored inner node', async () => {
    const { next } = prng(16)
    // Subtrees of 2 to 8 leaves hashed by the workers and the levels above them here, as 1024 are in a snapshot.
    for (const n of [0, 1, 2, 3, 4, 5, 7, 8, 9, 16, 17, 31, 33, 64, 100, 1500]) {
      const assets = 1 + Math.floor(next() * 3)
      const subtreeLevels = n === 1500 ? SUBTREE_LEVELS : 1 + Math.floor(next() * 3)
      const inputs = Array.from({ length: n }, () => ({
        address: randomBytes(32),
        amounts: Array.from(
          { length: assets },
          () => BigInt(Math.floor(next() * 1e15)) * 10n ** BigInt(Math.floor(next() * 20)),
        ),
      }))
      const chunkNodes = 1 + Math.floor(next() * 4)
      const stored = new Map<number, Buffer[]>()
      const leaves: RefNode[] = []
      const tree = new TreeBuilder(assets, chunkNodes, subtreeLevels)
      const keep = ({ leaves: hashed, nodes: chunks }: Awaited<ReturnType<TreeBuilder['take']>>) => {
        for (const chunk of hashed)
          for (let i = 0; i < chunk.count; i++) {
            const input = inputs[leaves.length] as (typeof inputs)[number]
            const user = chunk.users.subarray(64 * i, 64 * i + 64)
            expect(user.subarray(0, 32).equals(input.address)).toBe(true)
            const leaf = refLeaf(input.address, user.subarray(32), input.amounts)
            const node = chunk.leaves.subarray(nodeBytes(assets) * i, nodeBytes(assets) * (i + 1))
            expect(node.equals(Buffer.concat([leaf.hash, ...leaf.sums.map(u128)]))).toBe(true)
            leaves.push(leaf)
          }
        for (const { level, chunk, nodes } of chunks) {
          const levelChunks = stored.get(level) ?? []
          levelChunks[chunk] = nodes
          stored.set(level, levelChunks)
        }
      }
      for (const input of inputs) {
        // Addresses as bytes or base58, amounts as bigints or decimal text (as the database gives them).
        const amounts = next() < 0.5 ? input.amounts : input.amounts.map(String)
        tree.push(next() < 0.5 ? input.address : decoder.decode(input.address), amounts)
        if (next() < 0.3) keep(await tree.take())
      }
      const built = await tree.finish()
      keep(await tree.take())
      expect(leaves.length).toBe(n)
      const { root, top } = refRoot(leaves, assets)
      expect(built.leaves).toBe(n)
      expect(built.root.toString('hex'), `${n} leaves`).toBe(
        Buffer.concat([root.hash, ...root.sums.map(u128)]).toString('hex'),
      )
      for (let level = 1; level <= top; level++) {
        const bytes = Buffer.concat(stored.get(level) ?? [])
        const size = nodeBytes(assets)
        expect(bytes.length).toBe(refSize(n, level) * size)
        for (let i = 0; i < refSize(n, level); i++) {
          const node = refNode(leaves, assets, level, i)
          expect(
            bytes.subarray(i * size, (i + 1) * size).equals(Buffer.concat([node.hash, ...node.sums.map(u128)])),
          ).toBe(true)
        }
      }
    }
  })

  it('refuses an amount or a sum past 2^128 − 1', async () => {
    const max = (1n << 128n) - 1n
    const single = new TreeBuilder(1, 4, 1)
    expect(() => single.push(randomBytes(32), [max + 1n])).toThrow()
    for (const levels of [1, 3]) {
      const tree = new TreeBuilder(2, 4, levels)
      tree.push(randomBytes(32), [1n, max])
      tree.push(randomBytes(32), [max, 1n])
      await expect(tree.finish()).rejects.toThrow(/exceeds 128 bits/)
    }
  })
})

describe(`proof of liabilities (${dbKind})`, () => {
  let ctx: Awaited<ReturnType<typeof createChainApp>>
  /** Users with something owed: their id and address, and what the test gave them per asset. */
  const owed: { id: string; address: string }[] = []
  const expected = { PLG: 0n, USDT: 0n }
  let traders: Trader[] = []
  let nobody: Trader
  const day = '2026-01-01'

  beforeAll(async () => {
    ctx = await createChainApp()
    // No referral rewards, no node pool and no trade fee: whatever settlement and trades do, the total owed is constant.
    await seedBusinessConfig(ctx.db, {
      referralRewards: [],
      nodePoolDaily: '0',
      trade: { ...DEFAULT_BUSINESS_CONFIG.trade, feeBps: 0 },
    })
    const rootId = (
      await ctx.db.selectFrom('users').select('id').where('address', '=', ctx.root.address).executeTakeFirstOrThrow()
    ).id
    const funds = { PLG: 1000n * 10n ** 9n, USDT: 1000n * 10n ** 6n }
    traders = [await trader(ctx, funds), await trader(ctx, funds)]
    nobody = await trader(ctx)
    for (const t of traders) owed.push(t)
    expected.PLG += 2n * funds.PLG
    expected.USDT += 2n * funds.USDT
    const { next } = prng(7)
    for (let i = 0; i < 30; i++) {
      const address = new TestWallet().address
      const id = await addUser(ctx.db, rootId, address)
      owed.push({ id, address })
      const plg = BigInt(1 + Math.floor(next() * 1e6)) * 1000n
      const usdt = BigInt(Math.floor(next() * 1e6))
      await creditAvailable(ctx.db, id, 'PLG', plg)
      if (usdt > 0n) await creditAvailable(ctx.db, id, 'USDT', usdt)
      expected.PLG += plg
      expected.USDT += usdt
      if (i % 3 === 0) {
        const amount = BigInt(1 + Math.floor(next() * 1e6)) * 10n ** 6n
        await addStake(ctx.db, { userId: id, amount, days: 3, startDay: day })
        expected.PLG += (amount * 12_000n) / 10_000n // the promised output; the principal is spent
      }
      if (i % 4 === 0) {
        const amount = BigInt(1 + Math.floor(next() * 1e6)) * 100n
        await addDeposit(ctx.db, { userId: id, amount, days: 7, startDay: day })
        expected.USDT += amount + (amount * 50n) / 10_000n // the principal comes back, with the output
      }
    }
    // Registered users with nothing owed are no leaves.
    for (let i = 0; i < 3; i++) await addUser(ctx.db, rootId, new TestWallet().address)
  }, 120_000)
  afterAll(() => ctx?.close())

  const snapshotCount = async () =>
    Number((await sql<{ n: string }>`select count(*) as n from liability_snapshots`.execute(ctx.db)).rows[0]?.n)

  async function published(id: string) {
    for (let attempt = 0; attempt < 50; attempt++)
      if ((await publishSnapshot(ctx.db, ctx.platform, id)) === 'published') return
    throw new Error(`snapshot ${id} was not published`)
  }

  async function sumsOf(id: string) {
    const row = await ctx.db
      .selectFrom('liability_snapshots')
      .select(['root_sums', 'leaf_count'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow()
    return { PLG: BigInt(row.root_sums[0] as string), USDT: BigInt(row.root_sums[1] as string), leaves: row.leaf_count }
  }

  it('has no root before the first snapshot', async () => {
    expect(await call(ctx.app, api.liabilitiesRoot, {})).toMatchObject({ code: Code.OK, data: null })
  })

  it('takes a snapshot of every user owed something, publishes its root in one memo, and every proof verifies', async () => {
    const id = (await takeSnapshot(ctx.db, ctx.platform, { chunkNodes: 2, batchSize: 7 })) as string
    await published(id)
    const res = await call(ctx.app, api.liabilitiesRoot, {})
    expect(res.code).toBe(Code.OK)
    const root = res.data as LiabilityRoot
    expect(root).toMatchObject({
      snapshot_id: id,
      assets: [
        { coin: 'PLG', decimals: 9 },
        { coin: 'USDT', decimals: 6 },
      ],
    })
    // No user left out, nobody added: the leaves are the users owed something; the sums are what they are owed.
    expect(await sumsOf(id)).toEqual({ ...expected, leaves: String(owed.length) })
    expect(root.root.sums).toEqual([expected.PLG.toString(), expected.USDT.toString()])
    // …which is the solvency report's liabilities (one definition).
    const solvency = await call(ctx.app, api.solvency, {})
    const report = (solvency.data as { list: { coin: string; liabilities: string }[] }).list
    expect(report.map((r) => r.liabilities)).toEqual(root.root.sums)
    // The reserves at the snapshot's slot: the hot wallet was funded by the seed; nobody paid the treasury.
    expect(root.slot).toBeGreaterThan(0)
    expect(root.reserves.map((r) => r.coin)).toEqual(['PLG', 'USDT'])
    for (const r of root.reserves) expect(BigInt(r.holdings)).toBe(BigInt(r.treasury) + BigInt(r.hot_wallet))
    expect(BigInt(root.reserves[1]?.hot_wallet ?? 0)).toBeGreaterThan(0n)

    // The memo on chain says exactly this root, signed by the treasury (its key is known on the local chain).
    const tx = await ctx.connection.getParsedTransaction(root.signature as string, {
      commitment: 'confirmed',
      maxSupportedTransactionVersion: 0,
    })
    expect(tx?.meta?.err).toBeNull()
    const memos = (tx?.transaction.message.instructions ?? []).flatMap((ix) =>
      'parsed' in ix && ix.program === 'spl-memo' ? [ix.parsed as string] : [],
    )
    expect(memos).toEqual([`solpledge-pol-v1:${id}:${root.root.hash}:${root.root.sums.join(',')}`])
    const signers = tx?.transaction.message.accountKeys.filter((k) => k.signer).map((k) => k.pubkey.toBase58())
    expect(signers).toContain(ctx.platform.treasury.address)
    // Publishing again does nothing: one memo per snapshot.
    expect(await publishSnapshot(ctx.db, ctx.platform, id)).toBe('published')
    const row = await ctx.db
      .selectFrom('liability_snapshots')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow()
    expect([row.signature, row.attempts]).toEqual([root.signature, 1])

    // Every user's proof climbs to this root, with their own amounts; the leaves are every index once.
    const indexes = new Set<number>()
    for (const user of owed) {
      const proof = await inclusionProof(ctx.db, user.id)
      expect(verifies(proof, user.address), `user ${user.id}`).toBe(true)
      expect(proof.root).toEqual(root.root)
      expect(proof.signature).toBe(root.signature)
      indexes.add(proof.leaf_index)
    }
    expect([...indexes].sort((a, b) => a - b)).toEqual(owed.map((_, i) => i))
    // Through the API, for a signed-in user: the same proof; amounts are the user's balances.
    const t = traders[0] as Trader
    const mine = await call(ctx.app, api.liabilitiesProof, {}, t.auth)
    expect(mine.code).toBe(Code.OK)
    const proof = mine.data as LiabilityProof
    expect(proof).toEqual(await inclusionProof(ctx.db, t.id, id))
    const held = await balances(ctx.db, t.id)
    expect(proof.amounts).toEqual(
      ['PLG', 'USDT'].map((c) => String((held[c]?.available ?? 0n) + (held[c]?.locked ?? 0n))),
    )
    expect(verifies(proof, t.address)).toBe(true)
    expect(verifies(proof, (traders[1] as Trader).address)).toBe(false)

    // The users' verifier (packages/proof: the browser's and `npm run verify-proof`'s, written apart from this
    // server's builder) accepts the same proof against the memo it reads from the chain, and refuses it altered.
    const check = { address: t.address, rpcUrl: ctx.connection.rpcEndpoint, treasury: ctx.platform.treasury.address }
    expect(await verifyInclusion({ proof, ...check })).toMatchObject({ ok: true })
    const more = [...proof.amounts.slice(0, -1), String(BigInt(proof.amounts.at(-1) ?? 0) + 1n)]
    expect(await verifyInclusion({ proof: { ...proof, amounts: more }, ...check })).toMatchObject({ ok: false })
  }, 60_000)

  it('publishes after a crash once: the stored bytes are looked up and resent, new ones only once they expired', async () => {
    // Died after storing the signed memo, before sending it: the next pass sends those bytes, not new ones.
    const id = (await takeSnapshot(ctx.db, ctx.platform)) as string
    const row = await ctx.db
      .selectFrom('liability_snapshots')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow()
    const signer = await createKeyPairSignerFromBytes(ctx.platform.treasury.key?.secretKey as Uint8Array)
    const payer = await createKeyPairSignerFromBytes(ctx.platform.hotWallet.secretKey)
    const prepared = await prepareTransaction(ctx.platform.chain, payer, [], [memoInstruction(row.memo, [signer])])
    await ctx.db
      .updateTable('liability_snapshots')
      .set({
        signature: prepared.signature,
        wire_transaction: prepared.wireTransaction,
        last_valid_block_height: String(prepared.lastValidBlockHeight),
        attempts: 1,
      })
      .where('id', '=', id)
      .execute()
    await published(id)
    const after = await ctx.db
      .selectFrom('liability_snapshots')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow()
    expect([after.signature, after.attempts]).toEqual([prepared.signature, 1])
    // Bytes that can no longer land (their last valid height is past) are replaced, once.
    const expired = (await takeSnapshot(ctx.db, ctx.platform)) as string
    await ctx.db
      .updateTable('liability_snapshots')
      .set({
        signature: prepared.signature.replace(/.$/, (c) => (c === '1' ? '2' : '1')),
        wire_transaction: 'AA==',
        last_valid_block_height: '0',
        attempts: 1,
      })
      .where('id', '=', expired)
      .execute()
    await published(expired)
    const replaced = await ctx.db
      .selectFrom('liability_snapshots')
      .selectAll()
      .where('id', '=', expired)
      .executeTakeFirstOrThrow()
    expect(replaced.attempts).toBe(2)
    expect(replaced.signature).not.toBe(prepared.signature)
  }, 60_000)

  it('refuses a tampered proof: any amount, the salt, any sibling, the order', async () => {
    const user = owed[5] as { id: string; address: string }
    const proof = await inclusionProof(ctx.db, user.id)
    expect(verifies(proof, user.address)).toBe(true)
    const tampered: LiabilityProof[] = []
    const copy = () => structuredClone(proof)
    for (let i = 0; i < proof.amounts.length; i++) {
      const p = copy()
      p.amounts[i] = String(BigInt(p.amounts[i] as string) + 1n)
      tampered.push(p)
    }
    {
      const p = copy()
      p.salt = (p.salt[0] === '0' ? '1' : '0') + p.salt.slice(1)
      tampered.push(p)
    }
    for (let i = 0; i < proof.siblings.length; i++) {
      const p = copy()
      const s = p.siblings[i] as { hash: string; sums: string[] }
      s.hash = `${s.hash.slice(0, 63)}${s.hash[63] === '0' ? '1' : '0'}`
      tampered.push(p)
      const q = copy()
      const t = q.siblings[i] as { hash: string; sums: string[] }
      t.sums[0] = String(BigInt(t.sums[0] as string) + 1n)
      tampered.push(q)
    }
    // The order: the leaf on the other side, another index, two siblings swapped, a sibling dropped.
    for (const index of [proof.leaf_index ^ 1, proof.leaf_index + 2 ** proof.siblings.length]) {
      const p = copy()
      p.leaf_index = index
      tampered.push(p)
    }
    {
      const p = copy()
      p.siblings = [p.siblings[1], p.siblings[0], ...p.siblings.slice(2)] as LiabilityProof['siblings']
      tampered.push(p)
      const q = copy()
      q.siblings.pop()
      tampered.push(q)
    }
    expect(proof.siblings.length).toBeGreaterThanOrEqual(5)
    for (const [i, p] of tampered.entries()) expect(verifies(p, user.address), `tampering ${i}`).toBe(false)
  })

  it('answers bad or foreign requests with a refusal, never a fault', async () => {
    const t = traders[0] as Trader
    const notIn = {
      code: Code.NOT_FOUND,
      msg: 'You have no balance in this proof-of-liabilities snapshot, or it does not exist',
    }
    expect(await call(ctx.app, api.liabilitiesProof, { snapshot_id: '999999' }, t.auth)).toMatchObject({
      ...notIn,
      status: 200,
    })
    const garbage = ['abc', '', '0', '-1', '1.5', '1; drop', '9'.repeat(19), '9'.repeat(40), 7, null, {}]
    for (const body of [
      ...garbage.map((snapshot_id) => ({ snapshot_id })),
      { other: 1 },
      [] as unknown as Record<string, unknown>,
    ]) {
      const res = await call(ctx.app, api.liabilitiesProof, body, t.auth)
      expect(res.status, JSON.stringify(body)).toBe(200)
      expect([Code.INVALID, Code.NOT_FOUND], JSON.stringify(body)).toContain(res.code)
    }
    // A user owed nothing has no leaf; without a session there is no proof.
    expect(await call(ctx.app, api.liabilitiesProof, {}, nobody.auth)).toMatchObject(notIn)
    expect(await call(ctx.app, api.liabilitiesProof, {}, { lang: 'zh', ...nobody.auth })).toMatchObject({
      code: Code.NOT_FOUND,
      msg: '您在此负债证明快照中没有余额，或该快照不存在',
    })
    expect((await call(ctx.app, api.liabilitiesProof, {})).code).toBe(Code.SESSION_INVALID)
  })

  it('is consistent at every point of a settlement and while trades and settlement run', async () => {
    const constant = async (id: string | null) => {
      const sums = await sumsOf(id as string)
      expect([sums.PLG, sums.USDT]).toEqual([expected.PLG, expected.USDT])
    }
    // Stop the settlement of day+1 after each batch (phases pledge, finance, nodes, referral, pay), snapshot there.
    const target = '2026-01-02'
    let stops = 0
    for (let after = 1; ; after++) {
      let batches = 0
      const stop = new Error('stop')
      const outcome = await settleDay(ctx.db, target, {
        product: 'PLG',
        batchSize: 2,
        onBatch: () => {
          if (++batches === after) throw stop
        },
      }).then(
        () => 'done',
        (error: unknown) => {
          if (error !== stop) throw error
          return 'stopped'
        },
      )
      if (outcome === 'done') break
      stops++
      await constant(await takeSnapshot(ctx.db, ctx.platform, { batchSize: 3 }))
    }
    expect(stops).toBeGreaterThan(3)
    // Now all at once: the next days' settlement, trades between two users, snapshots.
    let settling = true
    const snapshots: string[] = []
    const settlement = settleThrough(ctx.db, '2026-01-05', { product: 'PLG', batchSize: 2 }).finally(() => {
      settling = false
    })
    const trades = (async () => {
      const [a, b] = traders as [Trader, Trader]
      for (let i = 0; i < 6; i++) {
        await place(ctx.app, a, 'sell', 500_000n, 10n * 10n ** 9n)
        await place(ctx.app, b, 'buy', 500_000n, 10n * 10n ** 9n)
      }
    })()
    const snapshotting = (async () => {
      do snapshots.push((await takeSnapshot(ctx.db, ctx.platform, { batchSize: 3 })) as string)
      while (settling)
    })()
    await Promise.all([settlement, trades, snapshotting])
    snapshots.push((await takeSnapshot(ctx.db, ctx.platform)) as string)
    for (const id of snapshots) await constant(id)
    // The trades happened: the two traders' balances moved.
    const [a, b] = await Promise.all(traders.map((t) => balances(ctx.db, t.id)))
    expect(a?.USDT?.available).toBe(1030n * 10n ** 6n)
    expect(b?.PLG?.available).toBe(1060n * 10n ** 9n)
  }, 120_000)

  it('takes one snapshot after each settled day, whatever the passes, and publishes it', async () => {
    const first = await liabilitiesJob(ctx.db, ctx.platform)
    expect(first.taken).not.toBeNull()
    const row = await ctx.db
      .selectFrom('liability_snapshots')
      .select(['trigger', 'status'])
      .where('id', '=', first.taken as string)
      .executeTakeFirstOrThrow()
    expect(row).toEqual({ trigger: 'settlement:2026-01-05', status: 'published' })
    const again = await Promise.all([liabilitiesJob(ctx.db, ctx.platform), liabilitiesJob(ctx.db, ctx.platform)])
    expect(again.map((pass) => pass.taken)).toEqual([null, null])
    // Concurrent takes of one trigger leave one snapshot.
    const count = await snapshotCount()
    const both = await Promise.all([
      takeSnapshot(ctx.db, ctx.platform, { trigger: 'settlement:test' }),
      takeSnapshot(ctx.db, ctx.platform, { trigger: 'settlement:test' }),
    ])
    expect(both.filter((id) => id !== null)).toHaveLength(1)
    expect(await snapshotCount()).toBe(count + 1)
  }, 60_000)

  it('lets an operator take one now, once per Idempotency-Key; a viewer cannot', async () => {
    const operator = await signedInAdmin(ctx.app, ctx.db, 'operator')
    const viewer = await signedInAdmin(ctx.app, ctx.db, 'viewer')
    const before = await snapshotCount()
    const headers = {
      headers: { ...operator.headers.headers, 'idempotency-key': `pol-${randomBytes(4).toString('hex')}` },
    }
    const [a, b] = await Promise.all([
      call(ctx.app, api.adminPolSnapshot, {}, headers),
      call(ctx.app, api.adminPolSnapshot, {}, headers),
    ])
    const again = await call(ctx.app, api.adminPolSnapshot, {}, headers)
    expect(a.code).toBe(Code.OK)
    expect([b.data, again.data]).toEqual([a.data, a.data])
    expect(await snapshotCount()).toBe(before + 1)
    expect((a.data as LiabilityRoot).signature).not.toBeNull()
    expect((await call(ctx.app, api.adminPolSnapshot, {}, viewer.headers)).code).toBe(Code.SESSION_INVALID)
    expect(await snapshotCount()).toBe(before + 1)
    // Audited: who took it, and which snapshot.
    const entry = await ctx.db
      .selectFrom('admin_audit')
      .selectAll()
      .where('action', '=', 'liabilities.snapshot')
      .executeTakeFirstOrThrow()
    expect(entry).toMatchObject({
      actor: operator.address,
      target: `snapshot:${(a.data as LiabilityRoot).snapshot_id}`,
    })
    // npm run snapshot-liabilities: the Operator-Token route (like the settlement run, each call takes one); no token,
    // no snapshot.
    const token = { headers: { 'operator-token': ctx.platform.operatorToken } }
    const cli = await call(ctx.app, api.liabilitiesSnapshot, {}, token)
    expect(cli.code).toBe(Code.OK)
    expect((await call(ctx.app, api.liabilitiesSnapshot, {})).code).not.toBe(Code.OK)
    expect(await snapshotCount()).toBe(before + 2)
    // The latest snapshot is the default of a proof; an older one kept can be asked for, a purged one cannot.
    await purgeOldSnapshots(ctx.db, 2)
    const latest = (cli.data as LiabilityRoot).snapshot_id
    const t = traders[1] as Trader
    const proofOf = async (snapshot_id?: string) =>
      call(ctx.app, api.liabilitiesProof, snapshot_id ? { snapshot_id } : {}, t.auth)
    expect(((await proofOf()).data as LiabilityProof).snapshot_id).toBe(latest)
    const kept = await ctx.db
      .selectFrom('liability_snapshots')
      .select('id')
      .where('purged_at', 'is', null)
      .orderBy('id')
      .executeTakeFirstOrThrow()
    expect(kept.id).not.toBe('1')
    const older = (await proofOf(kept.id)).data as LiabilityProof
    expect([older.snapshot_id, verifies(older, t.address)]).toEqual([kept.id, true])
    expect((await proofOf('1')).code).toBe(Code.NOT_FOUND)
    expect((await call(ctx.app, api.liabilitiesRoot, {})).data).toMatchObject({ snapshot_id: latest })
  }, 60_000)
})
