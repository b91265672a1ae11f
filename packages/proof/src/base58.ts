// Base58 (Bitcoin alphabet): @solana/kit's codec (@solana/codecs-strings), the one the server and the demo wallet use.
import { getBase58Encoder } from '@solana/codecs-strings'

const toBytes = getBase58Encoder()
const NOT_BASE58 = /[^1-9A-HJ-NP-Za-km-z]/

/** Bitcoin-alphabet base58 (Solana addresses and signatures) to bytes; null when a character is not base58. */
export const decodeBase58 = (text: string): Uint8Array | null =>
  NOT_BASE58.test(text) ? null : Uint8Array.from(toBytes.encode(text))

/** The 32 bytes of a Solana address (an ed25519 public key or a program address), or null when it is not one. */
export function addressBytes(address: string): Uint8Array | null {
  const bytes = address.length >= 32 && address.length <= 44 ? decodeBase58(address) : null
  return bytes?.length === 32 ? bytes : null
}
