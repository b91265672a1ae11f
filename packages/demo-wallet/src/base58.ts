// Base58 (Bitcoin alphabet), the encoding Solana uses for keys and signatures: @solana/kit's codec
// (@solana/codecs-strings), the one the server and the proof verifier use.
import { getBase58Decoder, getBase58Encoder } from '@solana/codecs-strings'

const toBytes = getBase58Encoder()
const toText = getBase58Decoder()
const NOT_BASE58 = /[^1-9A-HJ-NP-Za-km-z]/

export const encodeBase58 = (bytes: Uint8Array): string => toText.decode(bytes)

export function decodeBase58(text: string): Uint8Array {
  const bad = NOT_BASE58.exec(text)
  if (bad) throw new Error(`Invalid base58 character ${JSON.stringify(bad[0])}`)
  return Uint8Array.from(toBytes.encode(text))
}
