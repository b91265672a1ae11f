import { Keypair, PublicKey } from '@solana/web3.js'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { decodeBase58, encodeBase58 } from './base58.ts'

describe('base58', () => {
  it('round-trips arbitrary bytes, including leading zeros', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 80 }), (bytes) => {
        expect(decodeBase58(encodeBase58(bytes))).toEqual(bytes)
      }),
    )
    expect(encodeBase58(new Uint8Array([0, 0, 1]))).toBe('112')
    expect(encodeBase58(new Uint8Array())).toBe('')
  })

  it('agrees with web3.js public key encoding', () => {
    for (let i = 0; i < 20; i++) {
      const key = Keypair.generate().publicKey
      expect(encodeBase58(key.toBytes())).toBe(key.toBase58())
      expect(decodeBase58(key.toBase58())).toEqual(key.toBytes())
    }
    expect(encodeBase58(PublicKey.default.toBytes())).toBe('11111111111111111111111111111111')
  })

  it('rejects characters outside the alphabet', () => {
    expect(() => decodeBase58('abc0')).toThrow(/Invalid base58 character "0"/)
    expect(() => decodeBase58('Il')).toThrow(/Invalid base58/)
  })
})
