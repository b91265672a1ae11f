import type { InnerInstructions, TransactionRecord } from './chain.ts'
import { fromBase58, isStaticWritable, type ParsedTransaction, parseTransaction, toBase58, toBase64 } from './codec.ts'
import { RpcError, UNSUPPORTED_TRANSACTION_VERSION } from './errors.ts'
import { jsonParsedInstruction, MEMO_PROGRAM_IDS } from './instructions.ts'

export type TransactionEncoding = 'json' | 'jsonParsed' | 'base64' | 'base58'

/** getTransaction's result for a stored transaction, in the requested encoding. */
export function formatTransaction(
  record: TransactionRecord,
  encoding: TransactionEncoding,
  maxSupportedTransactionVersion: number | undefined,
): Record<string, unknown> {
  if (record.version !== 'legacy' && (maxSupportedTransactionVersion ?? -1) < record.version) {
    throw new RpcError(
      UNSUPPORTED_TRANSACTION_VERSION,
      `Transaction version (${record.version}) is not supported by the requesting client. Please try the request again with the following configuration parameter: "maxSupportedTransactionVersion": ${record.version}`,
    )
  }
  const tx = parseTransaction(record.wire)
  const result: Record<string, unknown> = {
    blockTime: record.blockTime,
    meta: formatMeta(record, encoding === 'jsonParsed'),
    slot: record.slot,
    transaction: formatTransactionBody(record, tx, encoding),
  }
  if (maxSupportedTransactionVersion !== undefined) result.version = record.version
  return result
}

function formatTransactionBody(record: TransactionRecord, tx: ParsedTransaction, encoding: TransactionEncoding) {
  if (encoding === 'base64') return [toBase64(record.wire), 'base64']
  if (encoding === 'base58') return [toBase58(record.wire), 'base58']
  const { message } = tx
  const signatures = tx.signatures.map(toBase58)
  const lookups =
    message.version === 0
      ? {
          addressTableLookups: message.addressTableLookups.map((l) => ({
            accountKey: l.accountKey,
            readonlyIndexes: l.readonlyIndexes,
            writableIndexes: l.writableIndexes,
          })),
        }
      : {}
  if (encoding === 'json') {
    return {
      message: {
        accountKeys: message.staticKeys,
        ...lookups,
        header: message.header,
        instructions: message.instructions.map((ix) => ({
          accounts: ix.accounts,
          data: toBase58(ix.data),
          programIdIndex: ix.programIdIndex,
          stackHeight: null,
        })),
        recentBlockhash: message.recentBlockhash,
      },
      signatures,
    }
  }
  const keys = record.accountKeys
  const staticCount = message.staticKeys.length
  const writableLoaded = record.loadedAddresses.writable.length
  return {
    message: {
      accountKeys: keys.map((pubkey, i) => ({
        pubkey,
        signer: i < message.header.numRequiredSignatures,
        source: i < staticCount ? 'transaction' : 'lookupTable',
        writable: i < staticCount ? isStaticWritable(message, i) : i < staticCount + writableLoaded,
      })),
      ...lookups,
      instructions: message.instructions.map((ix) =>
        jsonParsedInstruction(
          keys[ix.programIdIndex] ?? '',
          ix.accounts.map((a) => keys[a] ?? ''),
          ix.data,
          null,
        ),
      ),
      recentBlockhash: message.recentBlockhash,
    },
    signatures,
  }
}

function formatMeta(record: TransactionRecord, parsed: boolean): Record<string, unknown> {
  const meta: Record<string, unknown> = {
    computeUnitsConsumed: record.computeUnitsConsumed,
    err: record.err,
    fee: record.fee,
    innerInstructions: parsed
      ? parsedInnerInstructions(record.innerInstructions, record.accountKeys)
      : record.innerInstructions,
    logMessages: record.logMessages,
    postBalances: record.postBalances,
    postTokenBalances: record.postTokenBalances,
    preBalances: record.preBalances,
    preTokenBalances: record.preTokenBalances,
    rewards: [],
    status: record.err === null ? { Ok: null } : { Err: record.err },
  }
  if (!parsed) meta.loadedAddresses = record.loadedAddresses
  if (record.returnData) meta.returnData = record.returnData
  return meta
}

/** Inner instructions in the jsonParsed form (also what simulateTransaction returns with innerInstructions: true). */
export function parsedInnerInstructions(list: InnerInstructions[], accountKeys: string[]) {
  return list.map(({ index, instructions }) => ({
    index,
    instructions: instructions.map((ix) =>
      jsonParsedInstruction(
        accountKeys[ix.programIdIndex] ?? '',
        ix.accounts.map((a) => accountKeys[a] ?? ''),
        fromBase58(ix.data),
        ix.stackHeight,
      ),
    ),
  }))
}

/** A getSignatureStatuses entry; everything executed here is final. */
export function signatureStatus(record: TransactionRecord) {
  return {
    confirmationStatus: 'finalized',
    confirmations: null,
    err: record.err,
    slot: record.slot,
    status: record.err === null ? { Ok: null } : { Err: record.err },
  }
}

/** A getSignaturesForAddress entry (memo formatted like Agave: "[len] text", joined by "; "). */
export function signatureInfo(record: TransactionRecord) {
  return {
    blockTime: record.blockTime,
    confirmationStatus: 'finalized',
    err: record.err,
    memo: memoOf(record),
    signature: record.signature,
    slot: record.slot,
  }
}

function memoOf(record: TransactionRecord): string | null {
  const { message } = parseTransaction(record.wire)
  const memos = message.instructions
    .filter((ix) => MEMO_PROGRAM_IDS.has(message.staticKeys[ix.programIdIndex] ?? ''))
    .map((ix) => {
      const text = new TextDecoder().decode(ix.data)
      return `[${Buffer.byteLength(text)}] ${text}`
    })
  return memos.length > 0 ? memos.join('; ') : null
}
