import { FORMAT, type NodeJson } from './tree.ts'

/** The SPL Memo programs (v2, and v1 which real RPC parses too). */
const MEMO_PROGRAMS = new Set([
  'MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr',
  'Memo1UhkJRfHyvLMcVucJwxXeuD728EqVDDwQDxFMNo',
])

/** The memo that publishes a snapshot's root: `solpledge-pol-v1:<snapshot id>:<root hash hex>:<sum₁>,…,<sumₙ>`. */
export function memoText(snapshotId: string, root: NodeJson): string {
  return `${FORMAT}:${snapshotId}:${root.hash}:${root.sums.join(',')}`
}

const MEMO = new RegExp(`^${FORMAT}:([1-9][0-9]*):([0-9a-f]{64}):((?:0|[1-9][0-9]*)(?:,(?:0|[1-9][0-9]*))*)$`)

/** A published root read back from a memo's text, or null when the text is not a v1 root memo. */
export function parseMemo(text: string): { snapshotId: string; root: NodeJson } | null {
  const match = MEMO.exec(text)
  if (!match) return null
  const [, snapshotId = '', hash = '', sums = ''] = match
  return { snapshotId, root: { hash, sums: sums.split(',') } }
}

/** What a memo transaction says, as the chain's RPC reports it. */
export interface MemoTransaction {
  signature: string
  slot: number
  /** Unix seconds, null when the node does not know. */
  blockTime: number | null
  /** The chain's error when the transaction failed (then it published nothing); null when it succeeded. */
  err: unknown
  /** The texts of its SPL Memo instructions, in order. */
  memos: string[]
  /** The addresses that signed it (the fee payer first). */
  signers: string[]
}

/** The RPC endpoint could not be asked, or answered with an error or in an unexpected shape. */
export class RpcReadError extends Error {
  override readonly name = 'RpcReadError'
}

/** An instruction in getTransaction's jsonParsed form: a memo's is `{program: 'spl-memo', programId, parsed: text}`. */
interface ParsedInstruction {
  programId?: unknown
  parsed?: unknown
}

const memoOf = (instruction: ParsedInstruction): string | null =>
  typeof instruction.programId === 'string' &&
  MEMO_PROGRAMS.has(instruction.programId) &&
  typeof instruction.parsed === 'string'
    ? instruction.parsed
    : null

/**
 * Reads a transaction with the JSON-RPC method getTransaction (jsonParsed) from `rpcUrl`, with plain fetch: its memos
 * and its signers. Null when the node does not know the signature. Throws RpcReadError when the node cannot be asked.
 */
export async function readMemo(rpcUrl: string, signature: string): Promise<MemoTransaction | null> {
  let body: { result?: unknown; error?: { message?: unknown } }
  try {
    const response = await fetch(rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'getTransaction',
        params: [signature, { encoding: 'jsonParsed', commitment: 'confirmed', maxSupportedTransactionVersion: 0 }],
      }),
    })
    if (!response.ok) throw new RpcReadError(`${rpcUrl} answered HTTP ${response.status}`)
    body = (await response.json()) as typeof body
  } catch (error) {
    if (error instanceof RpcReadError) throw error
    throw new RpcReadError(`${rpcUrl} could not be asked: ${(error as Error).message}`)
  }
  if (body.error) throw new RpcReadError(`getTransaction failed: ${String(body.error.message ?? 'unknown error')}`)
  if (body.result === null) return null
  const result = body.result as {
    slot?: unknown
    blockTime?: unknown
    meta?: { err?: unknown } | null
    transaction?: { message?: { accountKeys?: unknown; instructions?: unknown } }
  }
  const message = result?.transaction?.message
  if (
    typeof result?.slot !== 'number' ||
    !Array.isArray(message?.accountKeys) ||
    !Array.isArray(message.instructions)
  ) {
    throw new RpcReadError('getTransaction answered in an unexpected shape (not jsonParsed)')
  }
  const keys = message.accountKeys as { pubkey?: unknown; signer?: unknown }[]
  return {
    signature,
    slot: result.slot,
    blockTime: typeof result.blockTime === 'number' ? result.blockTime : null,
    err: result.meta ? (result.meta.err ?? null) : 'no transaction status',
    memos: (message.instructions as ParsedInstruction[]).flatMap((ix) => memoOf(ix) ?? []),
    signers: keys.flatMap((key) => (key.signer === true && typeof key.pubkey === 'string' ? [key.pubkey] : [])),
  }
}
