import { describe, expect, it } from 'vitest'
import { explorerTxUrl } from './explorer.ts'

const SIGNATURE = '5VERv8NMvzbJMEkV8xnrLkEaWRtSz9CosKDYjCJjBRnbJLgp8uirBgmQpjKhoR4tjF3ZpRzrFmBV6UjKdiSZkQUW'

describe('explorerTxUrl', () => {
  it('links mainnet without a parameter and devnet or testnet by name', () => {
    const rpcUrl = 'https://rpc.example.com'
    expect(explorerTxUrl(SIGNATURE, { cluster: 'mainnet-beta', rpcUrl })).toBe(
      `https://explorer.solana.com/tx/${SIGNATURE}`,
    )
    expect(explorerTxUrl(SIGNATURE, { cluster: 'devnet', rpcUrl })).toBe(
      `https://explorer.solana.com/tx/${SIGNATURE}?cluster=devnet`,
    )
    expect(explorerTxUrl(SIGNATURE, { cluster: 'testnet', rpcUrl })).toBe(
      `https://explorer.solana.com/tx/${SIGNATURE}?cluster=testnet`,
    )
  })

  it('reads the local chain through its RPC URL as a custom cluster', () => {
    expect(explorerTxUrl(SIGNATURE, { cluster: 'localnet', rpcUrl: 'http://127.0.0.1:8899/?a=b&c' })).toBe(
      `https://explorer.solana.com/tx/${SIGNATURE}?cluster=custom&customUrl=http%3A%2F%2F127.0.0.1%3A8899%2F%3Fa%3Db%26c`,
    )
  })
})
