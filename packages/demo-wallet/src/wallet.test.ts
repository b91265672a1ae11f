import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { ed25519 } from '@noble/curves/ed25519'
import {
  type Connection,
  Keypair,
  PublicKey,
  type SendOptions,
  SystemProgram,
  Transaction,
  TransactionMessage,
  VersionedTransaction,
} from '@solana/web3.js'
import { describe, expect, it, vi } from 'vitest'
import { decodeBase58, encodeBase58 } from './base58.ts'
import { createDemoWalletStorageValue, DEMO_WALLET_STORAGE_KEY, MemoryStorage } from './storage.ts'
import { DemoWallet, type DemoWalletConnection } from './wallet.ts'

const rpcUrl = 'http://127.0.0.1:8899'
const blockhash = () => Keypair.generate().publicKey.toBase58()

function seeded(keys: Keypair[], active = 0, connection?: DemoWalletConnection) {
  const storage = new MemoryStorage()
  storage.setItem(
    DEMO_WALLET_STORAGE_KEY,
    createDemoWalletStorageValue(
      keys.map((k) => k.secretKey),
      active,
    ),
  )
  return { storage, wallet: new DemoWallet({ rpcUrl, storage, connection }) }
}

function transfer(from: PublicKey, to = Keypair.generate().publicKey) {
  return SystemProgram.transfer({ fromPubkey: from, toPubkey: to, lamports: 1_000 })
}

function legacyTx(feePayer: PublicKey) {
  const tx = new Transaction({ feePayer, recentBlockhash: blockhash() })
  tx.add(transfer(feePayer))
  return tx
}

function versionedTx(payerKey: PublicKey, ...extra: PublicKey[]) {
  const instructions = [transfer(payerKey), ...extra.map((k) => transfer(k))]
  const message = new TransactionMessage({ payerKey, recentBlockhash: blockhash(), instructions }).compileToV0Message()
  return new VersionedTransaction(message)
}

class FakeConnection implements DemoWalletConnection {
  sent: { raw: Uint8Array; options?: SendOptions }[] = []
  blockhash = blockhash()
  async sendRawTransaction(raw: Buffer | Uint8Array | number[], options?: SendOptions): Promise<string> {
    const bytes = Uint8Array.from(raw)
    this.sent.push({ raw: bytes, options })
    // Like the RPC: the first signature, base58.
    return encodeBase58(bytes.slice(1, 65))
  }
  async getLatestBlockhash() {
    return { blockhash: this.blockhash, lastValidBlockHeight: 1234 }
  }
}

describe('connect', () => {
  it('approves, exposes the active key and emits connect once', async () => {
    const key = Keypair.generate()
    const { wallet } = seeded([key])
    const onConnect = vi.fn()
    wallet.on('connect', onConnect)
    expect(wallet.isConnected).toBe(false)
    expect(wallet.publicKey).toBeNull()

    const { publicKey } = await wallet.connect()
    expect(publicKey.equals(key.publicKey)).toBe(true)
    expect(wallet.isConnected).toBe(true)
    expect(wallet.publicKey?.toBytes()).toEqual(key.publicKey.toBytes())
    expect(onConnect).toHaveBeenCalledTimes(1)
    expect(onConnect.mock.calls[0]?.[0]).toEqual(key.publicKey)

    await wallet.connect()
    expect(onConnect).toHaveBeenCalledTimes(1)
  })

  it('onlyIfTrusted rejects until this storage has connected once', async () => {
    const key = Keypair.generate()
    const { storage, wallet } = seeded([key])
    await expect(wallet.connect({ onlyIfTrusted: true })).rejects.toMatchObject({ code: 4001 })
    expect(wallet.isConnected).toBe(false)

    await wallet.connect()
    await wallet.disconnect()

    // A new page load: same storage, new provider.
    const reloaded = new DemoWallet({ rpcUrl, storage })
    expect(reloaded.isTrusted()).toBe(true)
    const { publicKey } = await reloaded.connect({ onlyIfTrusted: true })
    expect(publicKey.equals(key.publicKey)).toBe(true)
    expect(reloaded.isConnected).toBe(true)

    const other = new DemoWallet({ rpcUrl, storage: new MemoryStorage() })
    await expect(other.connect({ onlyIfTrusted: true })).rejects.toThrow(/rejected/)
  })
})

describe('disconnect', () => {
  it('emits disconnect, clears publicKey and stops signing', async () => {
    const { wallet } = seeded([Keypair.generate()])
    const onDisconnect = vi.fn()
    wallet.on('disconnect', onDisconnect)
    await wallet.connect()
    await wallet.disconnect()
    expect(onDisconnect).toHaveBeenCalledTimes(1)
    expect(onDisconnect.mock.calls[0]).toEqual([])
    expect(wallet.publicKey).toBeNull()
    expect(wallet.isConnected).toBe(false)
    await expect(wallet.signMessage(new Uint8Array([1]))).rejects.toMatchObject({ code: 4100 })
    await wallet.disconnect()
    expect(onDisconnect).toHaveBeenCalledTimes(1)
  })
})

describe('signMessage', () => {
  it('returns an ed25519 signature that verifies against the public key', async () => {
    const key = Keypair.generate()
    const { wallet } = seeded([key])
    await wallet.connect()
    const message = new TextEncoder().encode('Sign in to SolPledge\nnonce: 42')
    const { signature, publicKey } = await wallet.signMessage(message, 'utf8')
    expect(signature).toBeInstanceOf(Uint8Array)
    expect(signature).toHaveLength(64)
    expect(publicKey.equals(key.publicKey)).toBe(true)
    expect(ed25519.verify(signature, message, key.publicKey.toBytes())).toBe(true)
    expect(ed25519.verify(signature, new TextEncoder().encode('other'), key.publicKey.toBytes())).toBe(false)
  })

  it('rejects while disconnected', async () => {
    const { wallet } = seeded([Keypair.generate()])
    await expect(wallet.signMessage(new Uint8Array([1, 2]))).rejects.toMatchObject({ code: 4100 })
  })
})

describe('signTransaction', () => {
  it('signs a legacy transaction with a valid signature', async () => {
    const key = Keypair.generate()
    const { wallet } = seeded([key])
    await wallet.connect()
    const tx = legacyTx(key.publicKey)
    expect(tx.verifySignatures()).toBe(false)
    const signed = await wallet.signTransaction(tx)
    expect(signed).toBe(tx)
    expect(signed.verifySignatures()).toBe(true)
    const sig = signed.signatures[0]?.signature
    expect(sig && ed25519.verify(sig, signed.serializeMessage(), key.publicKey.toBytes())).toBe(true)
  })

  it('keeps signatures added by other signers on a legacy transaction', async () => {
    const key = Keypair.generate()
    const coSigner = Keypair.generate()
    const { wallet } = seeded([key])
    await wallet.connect()
    const tx = legacyTx(key.publicKey).add(transfer(coSigner.publicKey))
    tx.partialSign(coSigner)
    await wallet.signTransaction(tx)
    expect(tx.signatures).toHaveLength(2)
    expect(tx.verifySignatures()).toBe(true)
    expect(Transaction.from(tx.serialize()).verifySignatures()).toBe(true)
  })

  it('signs a versioned transaction with a valid signature', async () => {
    const key = Keypair.generate()
    const coSigner = Keypair.generate()
    const { wallet } = seeded([key])
    await wallet.connect()
    const tx = versionedTx(key.publicKey, coSigner.publicKey)
    tx.sign([coSigner])
    const signed = await wallet.signTransaction(tx)
    expect(signed).toBe(tx)
    const message = tx.message.serialize()
    const keys = tx.message.staticAccountKeys
    const ownIndex = keys.findIndex((k) => k.equals(key.publicKey))
    const coIndex = keys.findIndex((k) => k.equals(coSigner.publicKey))
    expect(ed25519.verify(tx.signatures[ownIndex] as Uint8Array, message, key.publicKey.toBytes())).toBe(true)
    expect(ed25519.verify(tx.signatures[coIndex] as Uint8Array, message, coSigner.publicKey.toBytes())).toBe(true)
    // Survives the wire format.
    const decoded = VersionedTransaction.deserialize(tx.serialize())
    expect(ed25519.verify(decoded.signatures[0] as Uint8Array, message, key.publicKey.toBytes())).toBe(true)
  })

  it('refuses a transaction the active key is not a signer of', async () => {
    const { wallet } = seeded([Keypair.generate()])
    await wallet.connect()
    const stranger = Keypair.generate().publicKey
    await expect(wallet.signTransaction(legacyTx(stranger))).rejects.toThrow(/unknown signer/)
    await expect(wallet.signTransaction(versionedTx(stranger))).rejects.toThrow(/Cannot sign/)
  })

  it('rejects while disconnected', async () => {
    const key = Keypair.generate()
    const { wallet } = seeded([key])
    const tx = legacyTx(key.publicKey)
    await expect(wallet.signTransaction(tx)).rejects.toMatchObject({ code: 4100 })
    expect(tx.signatures.every((s) => s.signature === null)).toBe(true)
  })

  it('signAllTransactions signs every transaction', async () => {
    const key = Keypair.generate()
    const { wallet } = seeded([key])
    await wallet.connect()
    const legacy = legacyTx(key.publicKey)
    const versioned = versionedTx(key.publicKey)
    const [a, b] = await wallet.signAllTransactions<Transaction | VersionedTransaction>([legacy, versioned])
    expect(a).toBe(legacy)
    expect(b).toBe(versioned)
    expect(legacy.verifySignatures()).toBe(true)
    expect(
      ed25519.verify(versioned.signatures[0] as Uint8Array, versioned.message.serialize(), key.publicKey.toBytes()),
    ).toBe(true)
  })
})

describe('signAndSendTransaction', () => {
  it('signs and submits the raw transaction with the options', async () => {
    const key = Keypair.generate()
    const connection = new FakeConnection()
    const { wallet } = seeded([key], 0, connection)
    await wallet.connect()
    const tx = versionedTx(key.publicKey)
    const options: SendOptions = { skipPreflight: true, preflightCommitment: 'processed', maxRetries: 2 }
    const { signature, publicKey } = await wallet.signAndSendTransaction(tx, options)
    expect(publicKey.equals(key.publicKey)).toBe(true)
    expect(connection.sent).toHaveLength(1)
    expect(connection.sent[0]?.options).toEqual(options)
    const sent = VersionedTransaction.deserialize(connection.sent[0]?.raw as Uint8Array)
    expect(signature).toBe(encodeBase58(sent.signatures[0] as Uint8Array))
    expect(ed25519.verify(decodeBase58(signature), sent.message.serialize(), key.publicKey.toBytes())).toBe(true)
  })

  it('fills in fee payer and blockhash of a bare legacy transaction', async () => {
    const key = Keypair.generate()
    const connection = new FakeConnection()
    const { wallet } = seeded([key], 0, connection)
    await wallet.connect()
    const tx = new Transaction().add(transfer(key.publicKey))
    await wallet.signAndSendTransaction(tx)
    const sent = Transaction.from(connection.sent[0]?.raw as Uint8Array)
    expect(sent.feePayer?.equals(key.publicKey)).toBe(true)
    expect(sent.recentBlockhash).toBe(connection.blockhash)
    expect(sent.verifySignatures()).toBe(true)
  })

  it('submits through a web3.js Connection on rpcUrl by default', async () => {
    const key = Keypair.generate()
    const requests: { method: string; params: [string, Record<string, unknown>] }[] = []
    const server = createServer((req, res) => {
      let body = ''
      req.on('data', (chunk) => {
        body += chunk
      })
      req.on('end', () => {
        const request = JSON.parse(body)
        requests.push(request)
        res.setHeader('content-type', 'application/json')
        res.end(JSON.stringify({ jsonrpc: '2.0', id: request.id, result: 'rpc-signature' }))
      })
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    try {
      const { port } = server.address() as AddressInfo
      const { storage } = seeded([key])
      const wallet = new DemoWallet({ rpcUrl: `http://127.0.0.1:${port}`, storage })
      await wallet.connect()
      const tx = legacyTx(key.publicKey)
      const { signature } = await wallet.signAndSendTransaction(tx, { skipPreflight: true })
      expect(signature).toBe('rpc-signature')
      expect(requests).toHaveLength(1)
      expect(requests[0]?.method).toBe('sendTransaction')
      const [encoded, config] = requests[0]?.params ?? ['', {}]
      expect(config).toMatchObject({ encoding: 'base64', skipPreflight: true })
      const sent = Transaction.from(Buffer.from(encoded, 'base64'))
      expect(sent.verifySignatures()).toBe(true)
      expect(sent.feePayer?.equals(key.publicKey)).toBe(true)
    } finally {
      await new Promise((resolve) => server.close(resolve))
    }
  })
})

describe('accounts', () => {
  it('switchAccount emits accountChanged with the new key while connected', async () => {
    const keys = [Keypair.generate(), Keypair.generate()]
    const { wallet } = seeded(keys)
    const onChanged = vi.fn()
    wallet.on('accountChanged', onChanged)
    await wallet.connect()

    const returned = wallet.switchAccount(1)
    expect(returned.equals(keys[1]?.publicKey as PublicKey)).toBe(true)
    expect(onChanged).toHaveBeenCalledTimes(1)
    const payload = onChanged.mock.calls[0]?.[0] as PublicKey
    expect(payload).toBeInstanceOf(PublicKey)
    expect(payload.equals(keys[1]?.publicKey as PublicKey)).toBe(true)
    expect(wallet.publicKey?.equals(keys[1]?.publicKey as PublicKey)).toBe(true)

    // Signing now uses the new key.
    const message = new Uint8Array([9, 9, 9])
    const { signature } = await wallet.signMessage(message)
    expect(ed25519.verify(signature, message, keys[1]?.publicKey.toBytes() as Uint8Array)).toBe(true)

    wallet.switchAccount(1) // already active: no event
    expect(onChanged).toHaveBeenCalledTimes(1)
    expect(() => wallet.switchAccount(2)).toThrow(RangeError)
  })

  it('switchAccount while disconnected changes the key without accountChanged', async () => {
    const keys = [Keypair.generate(), Keypair.generate()]
    const { wallet } = seeded(keys)
    const onChanged = vi.fn()
    const onChange = vi.fn()
    wallet.on('accountChanged', onChanged).on('change', onChange)
    wallet.switchAccount(1)
    expect(onChanged).not.toHaveBeenCalled()
    expect(onChange).toHaveBeenCalledTimes(1)
    const { publicKey } = await wallet.connect()
    expect(publicKey.equals(keys[1]?.publicKey as PublicKey)).toBe(true)
  })

  it('off/removeListener detach listeners and once fires once', async () => {
    const keys = [Keypair.generate(), Keypair.generate()]
    const { wallet } = seeded(keys)
    await wallet.connect()
    const a = vi.fn()
    const b = vi.fn()
    const c = vi.fn()
    wallet.on('accountChanged', a).on('accountChanged', b).once('accountChanged', c)
    wallet.off('accountChanged', a)
    wallet.switchAccount(1)
    wallet.removeListener('accountChanged', b)
    wallet.switchAccount(0)
    expect(a).not.toHaveBeenCalled()
    expect(b).toHaveBeenCalledTimes(1)
    expect(c).toHaveBeenCalledTimes(1)
    expect(wallet.listenerCount('accountChanged')).toBe(0)
  })
})

describe('request', () => {
  it('handles connect, signMessage and disconnect', async () => {
    const key = Keypair.generate()
    const { wallet } = seeded([key])
    const { publicKey } = (await wallet.request({ method: 'connect' })) as { publicKey: PublicKey }
    expect(publicKey.equals(key.publicKey)).toBe(true)
    const message = new Uint8Array([1, 2, 3])
    const { signature } = (await wallet.request({ method: 'signMessage', params: { message } })) as {
      signature: Uint8Array
    }
    expect(ed25519.verify(signature, message, key.publicKey.toBytes())).toBe(true)
    await wallet.request({ method: 'disconnect' })
    expect(wallet.isConnected).toBe(false)
    await expect(wallet.request({ method: 'nope' })).rejects.toMatchObject({ code: -32601 })
  })

  it('signs base58 serialized messages (legacy and v0)', async () => {
    const key = Keypair.generate()
    const { wallet } = seeded([key])
    await wallet.connect()
    const legacyMessage = legacyTx(key.publicKey).serializeMessage()
    const v0Message = versionedTx(key.publicKey).message.serialize()
    for (const bytes of [legacyMessage, v0Message]) {
      const result = (await wallet.request({
        method: 'signTransaction',
        params: { message: encodeBase58(bytes) },
      })) as {
        signature: string
        publicKey: string
        transaction: string
      }
      expect(result.publicKey).toBe(key.publicKey.toBase58())
      expect(ed25519.verify(decodeBase58(result.signature), bytes, key.publicKey.toBytes())).toBe(true)
      const decoded = VersionedTransaction.deserialize(decodeBase58(result.transaction))
      expect(Uint8Array.from(decoded.message.serialize())).toEqual(Uint8Array.from(bytes))
    }
  })

  it('signAndSendTransaction accepts a serialized transaction and send options', async () => {
    const key = Keypair.generate()
    const connection = new FakeConnection()
    const { wallet } = seeded([key], 0, connection as unknown as Connection)
    await wallet.connect()
    const tx = legacyTx(key.publicKey)
    const serialized = tx.serialize({ requireAllSignatures: false })
    const result = (await wallet.request({
      method: 'signAndSendTransaction',
      params: { message: encodeBase58(serialized), options: { skipPreflight: true } },
    })) as { signature: string }
    const sent = Transaction.from(connection.sent[0]?.raw as Uint8Array)
    expect(sent.verifySignatures()).toBe(true)
    expect(result.signature).toBe(encodeBase58(sent.signatures[0]?.signature as Uint8Array))
    expect(connection.sent[0]?.options).toEqual({ skipPreflight: true })
  })
})
