import { describe, expect, it } from 'vitest'
import { parseTransaction, stringifyJson } from './codec.ts'
import { describeTransactionError, RpcError } from './errors.ts'
import { uiAmountString, uiTokenAmount } from './token.ts'

describe('codec helpers', () => {
  it('writes bigints as exact JSON numbers and leaves strings alone', () => {
    expect(stringifyJson({ a: 18446744073709551615n, b: [1n, -2n], c: 'bigint-1', d: 3 })).toBe(
      '{"a":18446744073709551615,"b":[1,-2],"c":"bigint-1","d":3}',
    )
  })

  it('formats token amounts like real RPC', () => {
    expect(uiAmountString(0n, 9)).toBe('0')
    expect(uiAmountString(1n, 9)).toBe('0.000000001')
    expect(uiAmountString(1_500_000n, 6)).toBe('1.5')
    expect(uiAmountString(1000n * 10n ** 9n, 9)).toBe('1000')
    expect(uiAmountString(123n, 0)).toBe('123')
    expect(uiTokenAmount(12_340_000n, 6)).toEqual({
      amount: '12340000',
      decimals: 6,
      uiAmount: 12.34,
      uiAmountString: '12.34',
    })
  })

  it('describes transaction errors with Agave wording', () => {
    expect(describeTransactionError('BlockhashNotFound')).toBe('Blockhash not found')
    expect(describeTransactionError({ InstructionError: [0, { Custom: 1 }] })).toBe(
      'Error processing Instruction 0: custom program error: 0x1',
    )
    expect(describeTransactionError({ InstructionError: [2, 'InsufficientFunds'] })).toBe(
      'Error processing Instruction 2: insufficient funds for instruction',
    )
    expect(describeTransactionError({ InsufficientFundsForRent: { account_index: 1 } })).toBe(
      'Transaction results in an account (1) with insufficient funds for rent',
    )
  })

  it('rejects malformed wire transactions with invalid params', () => {
    const attempt = (bytes: number[]) => {
      try {
        parseTransaction(new Uint8Array(bytes))
        return undefined
      } catch (error) {
        return error
      }
    }
    const truncated = attempt([1, ...new Array(64).fill(0), 1, 0])
    expect(truncated).toBeInstanceOf(RpcError)
    expect((truncated as RpcError).code).toBe(-32602)
    expect((truncated as RpcError).message).toMatch(/^failed to deserialize/)
    // One signature, header says 1 signer, but no account keys.
    const unsanitary = attempt([1, ...new Array(64).fill(0), 1, 0, 0, 0, ...new Array(32).fill(0), 0])
    expect((unsanitary as RpcError).code).toBe(-32602)
  })
})
