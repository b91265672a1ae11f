import { randomBytes } from 'node:crypto'
import fs from 'node:fs/promises'
import path from 'node:path'
import { ed25519 } from '@noble/curves/ed25519'
import { getBase58Decoder } from '@solana/kit'

export interface StoredKeypair {
  address: string
  /** 64 bytes: secret seed then public key, the solana-keygen JSON layout. */
  secretKey: Uint8Array
}

export const addressOf = (publicKey: Uint8Array): string => getBase58Decoder().decode(publicKey)

/** Loads a solana-keygen style keypair file, creating it (mode 0600) when missing. */
export async function loadOrCreateKeypair(file: string): Promise<StoredKeypair> {
  try {
    const secretKey = Uint8Array.from(JSON.parse(await fs.readFile(file, 'utf8')) as number[])
    if (secretKey.length !== 64) throw new Error(`${file} is not a 64-byte keypair`)
    return { address: addressOf(secretKey.subarray(32)), secretKey }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
  }
  const seed = Uint8Array.from(randomBytes(32))
  const secretKey = new Uint8Array(64)
  secretKey.set(seed)
  secretKey.set(ed25519.getPublicKey(seed), 32)
  await fs.mkdir(path.dirname(file), { recursive: true })
  await fs.writeFile(file, JSON.stringify([...secretKey]), { mode: 0o600, flag: 'wx' })
  return { address: addressOf(secretKey.subarray(32)), secretKey }
}
