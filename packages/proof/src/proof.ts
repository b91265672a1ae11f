import { hexToBytes } from '@noble/hashes/utils'
import { addressBytes, decodeBase58 } from './base58.ts'
import {
  AmountRangeError,
  commitment,
  isEmptyNode,
  leafNode,
  MAX_AMOUNT,
  type NodeJson,
  parentNode,
  type SumNode,
  sameNode,
} from './tree.ts'

/** An asset of a snapshot, in the snapshot's order. */
export interface ProofAsset {
  coin: string
  decimals: number
}

/** A user's inclusion proof: exactly the data of `POST /api/assets/liabilities/proof`. */
export interface LiabilityProofData {
  snapshot_id: string
  taken_at: string
  slot: number
  assets: ProofAsset[]
  /** 32 bytes, lowercase hex. */
  salt: string
  /** Base units, decimal, one per asset. */
  amounts: string[]
  leaf_index: number
  /** The sibling of each node on the path, leaf level first. */
  siblings: NodeJson[]
  root: NodeJson
  /** The SPL Memo transaction that published the root (null until it is confirmed). */
  signature: string | null
}

/** The proof file (the web app's download, the verifier's input): the proof plus the user's address. */
export interface ProofFile extends LiabilityProofData {
  address: string
}

export type ProofFailure = 'malformed' | 'address' | 'overflow' | 'leafIndex' | 'rootMismatch'

/**
 * What verifyProof found. `root` is the root the proof leads to (null when it does not lead anywhere: malformed, an
 * address that is not one, an amount or a sum past 16 bytes); valid means it is exactly proof.root, hash and sums.
 */
export type ProofCheck =
  | { valid: true; root: SumNode }
  | { valid: false; reason: ProofFailure; message: string; root: SumNode | null }

const HEX32 = /^[0-9a-f]{64}$/
/** A decimal amount without leading zeros; its range (16 bytes) is checked apart, as an overflow. */
const DECIMAL = /^(0|[1-9][0-9]{0,99})$/
const ID = /^[1-9][0-9]{0,18}$/
/** More levels than a tree of 2⁶⁴ leaves: no snapshot has that many users. */
const MAX_LEVELS = 64

type Problem = string | null

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)
const isCount = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0

function nodeProblem(value: unknown, assets: number, at: string): Problem {
  if (!isObject(value)) return `${at} must be an object {hash, sums}`
  if (typeof value.hash !== 'string' || !HEX32.test(value.hash)) return `${at}.hash must be 64 lowercase hex digits`
  if (!Array.isArray(value.sums) || value.sums.length !== assets) return `${at}.sums must hold ${assets} amounts`
  const bad = value.sums.findIndex((sum) => typeof sum !== 'string' || !DECIMAL.test(sum))
  return bad < 0 ? null : `${at}.sums[${bad}] must be a decimal string of base units`
}

/** The first thing wrong with the shape of a proof (the API's data), or null. */
export function proofProblem(value: unknown): Problem {
  if (!isObject(value)) return 'the proof must be a JSON object'
  const proof = value as Partial<Record<keyof LiabilityProofData, unknown>>
  if (typeof proof.snapshot_id !== 'string' || !ID.test(proof.snapshot_id)) {
    return 'snapshot_id must be a decimal string (the snapshot number)'
  }
  if (typeof proof.taken_at !== 'string' || Number.isNaN(Date.parse(proof.taken_at))) {
    return 'taken_at must be a date-time'
  }
  if (!isCount(proof.slot)) return 'slot must be a non-negative integer'
  if (!Array.isArray(proof.assets) || proof.assets.length === 0) return 'assets must be a non-empty list'
  for (const [i, asset] of proof.assets.entries()) {
    if (!isObject(asset) || typeof asset.coin !== 'string' || asset.coin === '' || !isCount(asset.decimals)) {
      return `assets[${i}] must be {coin, decimals}`
    }
  }
  const n = proof.assets.length
  if (typeof proof.salt !== 'string' || !HEX32.test(proof.salt)) return 'salt must be 64 lowercase hex digits'
  if (!Array.isArray(proof.amounts) || proof.amounts.length !== n) return `amounts must hold ${n} amounts`
  const bad = proof.amounts.findIndex((amount) => typeof amount !== 'string' || !DECIMAL.test(amount))
  if (bad >= 0) return `amounts[${bad}] must be a decimal string of base units`
  if (!isCount(proof.leaf_index)) return 'leaf_index must be a non-negative integer'
  if (!Array.isArray(proof.siblings) || proof.siblings.length > MAX_LEVELS) {
    return `siblings must be a list of at most ${MAX_LEVELS} nodes`
  }
  for (const [i, sibling] of proof.siblings.entries()) {
    const problem = nodeProblem(sibling, n, `siblings[${i}]`)
    if (problem) return problem
  }
  const rootProblem = nodeProblem(proof.root, n, 'root')
  if (rootProblem) return rootProblem
  if (
    proof.signature !== null &&
    (typeof proof.signature !== 'string' || decodeBase58(proof.signature)?.length !== 64)
  ) {
    return 'signature must be a transaction signature (base58) or null'
  }
  return null
}

export type ProofFileResult = { ok: true; file: ProofFile } | { ok: false; message: string }

/** Validates a proof file's content (already parsed JSON): the proof plus `address`. */
export function parseProofFile(value: unknown): ProofFileResult {
  const problem = proofProblem(value)
  if (problem) return { ok: false, message: problem }
  const address = (value as { address?: unknown }).address
  if (typeof address !== 'string' || !addressBytes(address)) {
    return { ok: false, message: 'address must be the Solana address (base58) the proof is for' }
  }
  return { ok: true, file: value as ProofFile }
}

/** Reads a proof file's text: JSON, then parseProofFile. */
export function readProofFile(text: string): ProofFileResult {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    return { ok: false, message: `not JSON: ${(error as Error).message}` }
  }
  return parseProofFile(value)
}

/** The proof file for a proof and the address it is for, as the web app offers it for download. */
export function toProofFile(proof: LiabilityProofData, address: string): ProofFile {
  return { ...proof, address }
}

const toNode = (json: NodeJson): SumNode => ({ hash: hexToBytes(json.hash), sums: json.sums.map(BigInt) })

function overflow(message: string): ProofCheck {
  return { valid: false, reason: 'overflow', message, root: null }
}

/**
 * Verifies that `proof` includes `address` with the proof's amounts: recomputes the commitment, the leaf and each
 * node up the sibling path (bit k of leaf_index says whether the node at level k is a right child) and compares the
 * root it leads to with proof.root. Takes untrusted input: anything malformed is refused with a reason, never thrown.
 */
export function verifyProof(proof: LiabilityProofData, address: string): ProofCheck {
  const problem = proofProblem(proof)
  if (problem) return { valid: false, reason: 'malformed', message: problem, root: null }
  const key = addressBytes(address)
  if (!key) return { valid: false, reason: 'address', message: `${address} is not a Solana address`, root: null }
  const amounts = proof.amounts.map(BigInt)
  if (amounts.some((amount) => amount > MAX_AMOUNT)) return overflow('an amount does not fit 16 bytes (2¹²⁸ − 1)')
  const siblings = proof.siblings.map(toNode)
  const claimed = toNode(proof.root)
  if ([...siblings, claimed].some((node) => node.sums.some((sum) => sum > MAX_AMOUNT))) {
    return overflow('a sum does not fit 16 bytes (2¹²⁸ − 1)')
  }
  if (proof.leaf_index >= 2 ** siblings.length) {
    return {
      valid: false,
      reason: 'leafIndex',
      message: `leaf_index ${proof.leaf_index} is past the ${2 ** siblings.length} leaves of a tree of ${siblings.length} levels`,
      root: null,
    }
  }
  let node = leafNode(commitment(key, hexToBytes(proof.salt)), amounts)
  let index = proof.leaf_index
  for (const [level, sibling] of siblings.entries()) {
    const isRight = index % 2 === 1
    // The empty node only ever stands for a missing right child.
    if (isRight && isEmptyNode(sibling)) {
      return {
        valid: false,
        reason: 'leafIndex',
        message: `at level ${level} the left sibling is the empty node: leaf_index ${proof.leaf_index} is not a leaf of this tree`,
        root: null,
      }
    }
    try {
      node = isRight ? parentNode(sibling, node) : parentNode(node, sibling)
    } catch (error) {
      if (error instanceof AmountRangeError) return overflow(`the sums at level ${level + 1} pass 2¹²⁸ − 1`)
      throw error
    }
    index = Math.floor(index / 2)
  }
  if (!sameNode(node, claimed)) {
    return {
      valid: false,
      reason: 'rootMismatch',
      message:
        "the proof leads to another root than the snapshot's: an amount, the salt, the address, a sibling or the leaf index is not the one in the tree",
      root: node,
    }
  }
  return { valid: true, root: node }
}
