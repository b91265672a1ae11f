// Test only: a proof-of-liabilities tree builder written apart from the verifier (node:crypto for SHA-256, kit for
// addresses), following docs/proof-of-liabilities.md, so that the tests check one implementation against another.
import { createHash, randomBytes } from 'node:crypto'
import { getAddressDecoder, getAddressEncoder } from '@solana/kit'
import type { LiabilityProofData, ProofAsset } from './proof.ts'

const ASSETS: ProofAsset[] = [
  { coin: 'USDT', decimals: 6 },
  { coin: 'PLG', decimals: 9 },
]

interface Node {
  hash: Buffer
  sums: bigint[]
}

export interface TestUser {
  address: string
  amounts: bigint[]
  /** 32 bytes; random when left out. */
  salt?: Buffer
}

const sha256 = (...parts: Buffer[]) => createHash('sha256').update(Buffer.concat(parts)).digest()
export const u128 = (value: bigint) => Buffer.from(value.toString(16).padStart(32, '0'), 'hex')
const text = (value: string) => Buffer.from(value, 'utf8')
const addressToBytes = (address: string) => Buffer.from(getAddressEncoder().encode(address as never))
export const randomAddress = () => getAddressDecoder().decode(randomBytes(32)) as string

function refCommitment(address: string, salt: Buffer): Buffer {
  return sha256(text('solpledge-pol-v1:user'), addressToBytes(address), salt)
}
function refLeaf(commitment: Buffer, amounts: bigint[]): Node {
  return { hash: sha256(text('solpledge-pol-v1:leaf'), commitment, ...amounts.map(u128)), sums: amounts }
}
function refNode(left: Node, right: Node): Node {
  return {
    hash: sha256(text('solpledge-pol-v1:node'), left.hash, ...left.sums.map(u128), right.hash, ...right.sums.map(u128)),
    sums: left.sums.map((sum, i) => sum + (right.sums[i] as bigint)),
  }
}

const json = (node: Node) => ({ hash: node.hash.toString('hex'), sums: node.sums.map(String) })

/** Builds the tree of `users` in the given order (the leaf order) and hands out each user's proof. */
export function buildTree(users: TestUser[], options: { snapshotId?: string; assets?: ProofAsset[] } = {}) {
  const assets = options.assets ?? ASSETS
  const empty: Node = { hash: Buffer.alloc(32), sums: assets.map(() => 0n) }
  const salts = users.map((user) => user.salt ?? randomBytes(32))
  const levels: Node[][] = [
    users.map((user, i) => refLeaf(refCommitment(user.address, salts[i] as Buffer), user.amounts)),
  ]
  for (let level = levels[0] as Node[]; level.length > 1; ) {
    const next: Node[] = []
    for (let i = 0; i < level.length; i += 2) next.push(refNode(level[i] as Node, level[i + 1] ?? empty))
    levels.push(next)
    level = next
  }
  const root = (levels.at(-1) as Node[])[0] ?? empty
  const proofAt = (index: number, signature: string | null = null): LiabilityProofData => ({
    snapshot_id: options.snapshotId ?? '7',
    taken_at: '2026-11-25T00:00:00.000Z',
    slot: 1234,
    assets,
    salt: (salts[index] as Buffer).toString('hex'),
    amounts: (users[index] as TestUser).amounts.map(String),
    leaf_index: index,
    siblings: levels.slice(0, -1).map((level, depth) => json(level[(index >> depth) ^ 1] ?? empty)),
    root: json(root),
    signature,
  })
  return { root: json(root), proofAt }
}
