// Proof of liabilities, format v1 (docs/proof-of-liabilities.md): an implementation independent of the server's, safe
// in a browser (no Node module, SHA-256 from @noble/hashes, the chain read with plain fetch).
export { addressBytes } from './base58.ts'
export { type MemoTransaction, memoText, parseMemo, RpcReadError, readMemo } from './memo.ts'
export {
  type LiabilityProofData,
  type ProofAsset,
  type ProofCheck,
  type ProofFailure,
  type ProofFile,
  type ProofFileResult,
  parseProofFile,
  proofProblem,
  readProofFile,
  toProofFile,
  verifyProof,
} from './proof.ts'
export {
  AMOUNT_BYTES,
  AmountRangeError,
  commitment,
  emptyNode,
  encodeAmount,
  FORMAT,
  HASH_BYTES,
  isEmptyNode,
  LEAF_DOMAIN,
  leafNode,
  MAX_AMOUNT,
  NODE_DOMAIN,
  type NodeJson,
  nodeToJson,
  parentNode,
  type SumNode,
  sameNode,
  USER_DOMAIN,
} from './tree.ts'
export { type Inclusion, type InclusionFailure, type InclusionRequest, verifyInclusion } from './verify.ts'
