import { createHash, randomBytes } from 'node:crypto'
import { ed25519 } from '@noble/curves/ed25519'
import { getBase58Encoder, isAddress } from '@solana/kit'

/** True when the text is a base58 Solana address of 32 bytes. */
export const isWalletAddress = (value: string): boolean => isAddress(value)

const HEX_SIGNATURE = /^(?:0x)?([0-9a-fA-F]{128})$/

/** Decodes a hex ed25519 signature (64 bytes), or null when it is not one. */
export function parseHexSignature(hex: string): Uint8Array | null {
  const match = HEX_SIGNATURE.exec(hex)
  return match?.[1] ? Uint8Array.from(Buffer.from(match[1], 'hex')) : null
}

/** Verifies an ed25519 signature of the UTF-8 bytes of `message` by the wallet `address`. */
export function verifyWalletSignature(address: string, message: string, signature: Uint8Array): boolean {
  const publicKey = getBase58Encoder().encode(address)
  try {
    return ed25519.verify(signature, new TextEncoder().encode(message), Uint8Array.from(publicKey))
  } catch {
    return false
  }
}

export const newToken = (): string => randomBytes(32).toString('base64url')
export const newNonce = (): string => randomBytes(16).toString('hex')
export const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex')
