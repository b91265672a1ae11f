import { createHash } from 'node:crypto'
import fs from 'node:fs'
import { getAddressDecoder } from '@solana/kit'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { memoText, parseMemo } from './memo.ts'
import { type LiabilityProofData, parseProofFile, readProofFile, toProofFile, verifyProof } from './proof.ts'
import { buildTree, randomAddress, u128 } from './test-helpers.ts'
import { commitment, emptyNode, encodeAmount, leafNode, MAX_AMOUNT, nodeToJson, parentNode } from './tree.ts'

/** The element at `i`, which the test knows is there. */
function at<T>(list: T[], i: number): T {
  const item = list[i]
  if (item === undefined) throw new Error(`no element ${i}`)
  return item
}

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex')
const seq = (start: number) => Buffer.from(Array.from({ length: 32 }, (_, i) => start + i))

/** The worked example of docs/proof-of-liabilities.md: three users, USDT then PLG, leaves in this order. */
const example = [
  {
    address: getAddressDecoder().decode(seq(0x01)) as string,
    salt: Buffer.alloc(32, 0x11),
    amounts: [12_500_000n, 0n],
  },
  {
    address: getAddressDecoder().decode(seq(0x21)) as string,
    salt: Buffer.alloc(32, 0x22),
    amounts: [0n, 3_000_000_000n],
  },
  { address: getAddressDecoder().decode(seq(0x41)) as string, salt: Buffer.alloc(32, 0x33), amounts: [1_000_000n, 1n] },
]
const EXAMPLE_ROOT = '82b21f4be8b127bc166a1c56c40a08dd21fd1980726e50d298874ba7d3b2e05c'

describe('the v1 hashing', () => {
  it('writes amounts as 16 bytes big-endian, 0 … 2¹²⁸ − 1 only', () => {
    expect(hex(encodeAmount(0n))).toBe('00'.repeat(16))
    expect(hex(encodeAmount(1n))).toBe(`${'00'.repeat(15)}01`)
    expect(hex(encodeAmount(12_500_000n))).toBe(`${'00'.repeat(13)}bebc20`)
    expect(hex(encodeAmount(MAX_AMOUNT))).toBe('ff'.repeat(16))
    expect(() => encodeAmount(MAX_AMOUNT + 1n)).toThrow(RangeError)
    expect(() => encodeAmount(-1n)).toThrow(RangeError)
  })

  it('hashes the commitment, a leaf and a node byte for byte as the format says (checked with node:crypto)', () => {
    const [a] = example
    if (!a) throw new Error('no example')
    const address = seq(0x01)
    expect(a.address).toBe('4wBqpZM9xaSheZzJSMawUKKwhdpChKbZ5eu5ky4Vigw')
    const c = commitment(address, a.salt)
    const sha = (...parts: Buffer[]) => createHash('sha256').update(Buffer.concat(parts)).digest('hex')
    expect(hex(c)).toBe(sha(Buffer.from('solpledge-pol-v1:user'), address, a.salt))
    expect(hex(c)).toBe('06f9af2e1885d014a91e29e4c722246a7e547e4bd4a9467adf928950f9204158')
    const leaf = leafNode(c, a.amounts)
    expect(hex(leaf.hash)).toBe(sha(Buffer.from('solpledge-pol-v1:leaf'), Buffer.from(c), u128(12_500_000n), u128(0n)))
    const right = { hash: new Uint8Array(32).fill(7), sums: [5n, 6n] }
    const node = parentNode(leaf, right)
    expect(node.sums).toEqual([12_500_005n, 6n])
    expect(hex(node.hash)).toBe(
      sha(
        Buffer.from('solpledge-pol-v1:node'),
        Buffer.from(leaf.hash),
        u128(12_500_000n),
        u128(0n),
        Buffer.from(right.hash),
        u128(5n),
        u128(6n),
      ),
    )
    expect(nodeToJson(emptyNode(2))).toEqual({ hash: '00'.repeat(32), sums: ['0', '0'] })
  })

  it('leads every user of the worked example to the documented root, the empty node padding the odd level', () => {
    const tree = buildTree(example)
    expect(tree.root).toEqual({ hash: EXAMPLE_ROOT, sums: ['13500000', '3000000001'] })
    for (const [i, user] of example.entries()) {
      expect(verifyProof(tree.proofAt(i), user.address)).toMatchObject({ valid: true })
    }
    const third = tree.proofAt(2)
    const [, , c] = example
    if (!c) throw new Error('no example')
    expect(hex(leafNode(commitment(seq(0x41), c.salt), c.amounts).hash)).toBe(
      '87c6ae1d717a57aa4931e78a187740c3e78a3d5c000874cee9a85425196daaeb',
    )
    expect(tree.proofAt(0).siblings.map((node) => node.hash)).toEqual([
      '6aceca84f4df1a3fe5642a0e7c032822503011d4db6e0aab9b59e9613ae41ee9',
      '87d76d61878eec1d86a23690ed1a8effd38e5a639d351d00b7e1b924e4da3ccc',
    ])
    expect(third.siblings[0]).toEqual({ hash: '00'.repeat(32), sums: ['0', '0'] })
    expect(third.siblings[1]).toEqual({
      hash: 'a1288e5f52bc45a064c9d4c27ce9703bcd337e77d1b1fecce3894adbe88b7a6d',
      sums: ['12500000', '3000000000'],
    })
  })

  it("is docs/proof-of-liabilities.md's worked example: its proof file holds and its memo is the root's", () => {
    const doc = fs.readFileSync(new URL('../../../docs/proof-of-liabilities.md', import.meta.url), 'utf8')
    const read = readProofFile(doc.match(/```json\n([\s\S]*?)```/)?.[1] ?? '')
    if (!read.ok) throw new Error(read.message)
    expect(read.file).toEqual(toProofFile(buildTree(example).proofAt(2), read.file.address))
    expect(verifyProof(read.file, read.file.address)).toMatchObject({ valid: true })
    expect(doc).toContain(`The memo is \`${memoText('7', read.file.root)}\``)
  })

  it('agrees with the reference builder on random trees: every user reaches the same root', () => {
    const amount = fc.bigInt({ min: 0n, max: (1n << 100n) - 1n })
    fc.assert(
      fc.property(fc.array(fc.tuple(amount, amount), { minLength: 1, maxLength: 40 }), (amounts) => {
        const users = amounts.map((pair) => ({ address: randomAddress(), amounts: pair }))
        const tree = buildTree(users)
        for (const [i, user] of users.entries()) {
          const check = verifyProof(tree.proofAt(i), user.address)
          if (!check.valid) throw new Error(check.message)
          expect(nodeToJson(check.root)).toEqual(tree.root)
        }
      }),
      { numRuns: 40 },
    )
  })

  it('takes a one-user tree (the leaf is the root) and a single leaf padded with the empty node', () => {
    const user = { address: randomAddress(), amounts: [1n, 2n] }
    const tree = buildTree([user])
    const proof = tree.proofAt(0)
    expect(proof.siblings).toEqual([])
    expect(verifyProof(proof, user.address)).toMatchObject({ valid: true })
    // A builder that pairs the lone leaf with the empty node gives a proof of one level: it holds as well.
    const padded = parentNode(
      leafNode(commitment(Buffer.from(seq(0)), Buffer.from(proof.salt, 'hex')), [1n, 2n]),
      emptyNode(2),
    )
    const address = getAddressDecoder().decode(seq(0)) as string
    const paddedProof = { ...proof, siblings: [nodeToJson(emptyNode(2))], root: nodeToJson(padded) }
    expect(verifyProof(paddedProof, address)).toMatchObject({ valid: true })
  })
})

describe('a tampered proof', () => {
  const users = Array.from({ length: 5 }, (_, i) => ({ address: randomAddress(), amounts: [BigInt(i) * 1000n, 7n] }))
  const tree = buildTree(users)
  const good = tree.proofAt(2)
  const address = users[2]?.address as string
  const flip = (hexText: string) => (hexText[0] === '0' ? '1' : '0') + hexText.slice(1)
  const edit = (change: (proof: LiabilityProofData) => void) => {
    const proof = structuredClone(good)
    change(proof)
    return proof
  }

  it('is accepted untouched', () => {
    expect(verifyProof(good, address)).toMatchObject({ valid: true })
  })

  it.each([
    [
      'an amount',
      (p: LiabilityProofData) => {
        p.amounts[0] = '2001'
      },
    ],
    [
      'the other asset',
      (p: LiabilityProofData) => {
        p.amounts[1] = '6'
      },
    ],
    [
      'the salt',
      (p: LiabilityProofData) => {
        p.salt = flip(p.salt)
      },
    ],
    [
      'a sibling hash',
      (p: LiabilityProofData) => {
        at(p.siblings, 1).hash = flip(at(p.siblings, 1).hash)
      },
    ],
    [
      'a sibling sum',
      (p: LiabilityProofData) => {
        at(p.siblings, 0).sums[1] = '8'
      },
    ],
    [
      'the leaf index (its neighbour)',
      (p: LiabilityProofData) => {
        p.leaf_index = 3
      },
    ],
    [
      'the order of the siblings',
      (p: LiabilityProofData) => {
        p.siblings.reverse()
      },
    ],
    [
      'the root hash',
      (p: LiabilityProofData) => {
        p.root.hash = flip(p.root.hash)
      },
    ],
    [
      'a root sum',
      (p: LiabilityProofData) => {
        p.root.sums[0] = '1'
      },
    ],
  ])('is refused when %s changed', (_, change) => {
    const check = verifyProof(edit(change), address)
    expect(check).toMatchObject({ valid: false, reason: 'rootMismatch' })
  })

  it("is refused for another user's address", () => {
    expect(verifyProof(good, users[3]?.address as string)).toMatchObject({ valid: false, reason: 'rootMismatch' })
    expect(verifyProof(good, 'not-an-address')).toMatchObject({ valid: false, reason: 'address' })
  })

  it('is refused with a leaf index past the tree or an empty left sibling', () => {
    expect(
      verifyProof(
        edit((p) => {
          p.leaf_index = 8
        }),
        address,
      ),
    ).toMatchObject({
      valid: false,
      reason: 'leafIndex',
    })
    const last = tree.proofAt(4)
    // Leaf 4 is paired with the empty node on its right; claiming it is a right child puts the empty node on the left.
    const check = verifyProof({ ...last, leaf_index: 5 }, users[4]?.address as string)
    expect(check).toMatchObject({ valid: false, reason: 'leafIndex' })
  })

  it('is refused when an amount or a sum passes 2¹²⁸ − 1', () => {
    const tooBig = String(MAX_AMOUNT + 1n)
    expect(
      verifyProof(
        edit((p) => {
          p.amounts[0] = tooBig
        }),
        address,
      ),
    ).toMatchObject({ reason: 'overflow' })
    expect(
      verifyProof(
        edit((p) => {
          at(p.siblings, 0).sums[0] = tooBig
        }),
        address,
      ),
    ).toMatchObject({
      reason: 'overflow',
    })
    // Each in range, their sum not: the node above them cannot be written.
    const near = edit((p) => {
      p.amounts[0] = String(MAX_AMOUNT)
      at(p.siblings, 0).sums[0] = '1'
    })
    expect(verifyProof(near, address)).toMatchObject({ valid: false, reason: 'overflow', root: null })
  })
})

describe('the proof file', () => {
  const user = { address: randomAddress(), amounts: [5n, 0n] }
  const proof = buildTree([user, { address: randomAddress(), amounts: [1n, 1n] }]).proofAt(0)
  const file = toProofFile(proof, user.address)

  it('is the proof plus the address, and reads back', () => {
    expect(file).toEqual({ ...proof, address: user.address })
    expect(readProofFile(JSON.stringify(file))).toEqual({ ok: true, file })
  })

  it.each([
    ['{', /^not JSON/],
    ['[]', /must be a JSON object/],
    [JSON.stringify({ ...file, address: undefined }), /address must be/],
    [JSON.stringify({ ...file, snapshot_id: 7 }), /snapshot_id must be/],
    [JSON.stringify({ ...file, taken_at: 'yesterday' }), /taken_at/],
    [JSON.stringify({ ...file, slot: -1 }), /slot/],
    [JSON.stringify({ ...file, assets: [] }), /assets must be a non-empty list/],
    [JSON.stringify({ ...file, salt: file.salt.toUpperCase() }), /salt must be 64 lowercase hex/],
    [JSON.stringify({ ...file, amounts: ['5'] }), /amounts must hold 2 amounts/],
    [JSON.stringify({ ...file, amounts: ['05', '0'] }), /amounts\[0\] must be a decimal string/],
    [JSON.stringify({ ...file, amounts: [5, 0] }), /amounts\[0\] must be a decimal string/],
    [JSON.stringify({ ...file, leaf_index: 0.5 }), /leaf_index/],
    [JSON.stringify({ ...file, siblings: [{ hash: 'ab', sums: ['0', '0'] }] }), /siblings\[0\]\.hash/],
    [JSON.stringify({ ...file, siblings: [{ hash: '0'.repeat(64), sums: ['0'] }] }), /siblings\[0\]\.sums must hold 2/],
    [JSON.stringify({ ...file, root: null }), /root must be an object/],
    [JSON.stringify({ ...file, signature: 'abc' }), /signature must be/],
  ])('refuses %s with a reason', (text, reason) => {
    const result = readProofFile(text)
    expect(result.ok).toBe(false)
    expect(result.ok ? '' : result.message).toMatch(reason)
  })

  it('is also what verifyProof refuses as malformed, never by throwing', () => {
    expect(parseProofFile({ ...file, amounts: 'x' })).toMatchObject({ ok: false })
    expect(verifyProof({ ...proof, amounts: ['x', '0'] }, user.address)).toMatchObject({
      valid: false,
      reason: 'malformed',
      message: 'amounts[0] must be a decimal string of base units',
    })
    expect(verifyProof(null as unknown as LiabilityProofData, user.address)).toMatchObject({ reason: 'malformed' })
  })
})

describe('the memo', () => {
  it('is solpledge-pol-v1:<id>:<root hash>:<sums> and parses back', () => {
    const root = { hash: EXAMPLE_ROOT, sums: ['13500000', '3000000001'] }
    const text = memoText('7', root)
    expect(text).toBe(`solpledge-pol-v1:7:${EXAMPLE_ROOT}:13500000,3000000001`)
    expect(parseMemo(text)).toEqual({ snapshotId: '7', root })
  })

  it.each([
    'solpledge-pol-v2:7:ab:1',
    `solpledge-pol-v1:07:${EXAMPLE_ROOT}:1`,
    `solpledge-pol-v1:7:${EXAMPLE_ROOT.toUpperCase()}:1`,
    `solpledge-pol-v1:7:${EXAMPLE_ROOT}:`,
    `solpledge-pol-v1:7:${EXAMPLE_ROOT}:1,,2`,
    `solpledge-pol-v1:7:${EXAMPLE_ROOT}:1 `,
    'withdraw:12',
  ])('is not %s', (text) => {
    expect(parseMemo(text)).toBeNull()
  })
})
