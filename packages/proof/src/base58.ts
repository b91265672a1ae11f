const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz'

/** Bitcoin-alphabet base58 (Solana addresses and signatures) to bytes; null when a character is not base58. */
export function decodeBase58(text: string): Uint8Array | null {
  let value = 0n
  for (const char of text) {
    const digit = ALPHABET.indexOf(char)
    if (digit < 0) return null
    value = value * 58n + BigInt(digit)
  }
  const bytes: number[] = []
  for (; value > 0n; value >>= 8n) bytes.push(Number(value & 0xffn))
  // Each leading '1' is a leading zero byte.
  for (let i = 0; i < text.length && text[i] === '1'; i++) bytes.push(0)
  return Uint8Array.from(bytes.reverse())
}

/** The 32 bytes of a Solana address (an ed25519 public key or a program address), or null when it is not one. */
export function addressBytes(address: string): Uint8Array | null {
  const bytes = address.length >= 32 && address.length <= 44 ? decodeBase58(address) : null
  return bytes?.length === 32 ? bytes : null
}
