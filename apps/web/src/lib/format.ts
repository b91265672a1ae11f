/** Lower-case hex of bytes, e.g. a wallet signature (SPEC §9: the signature is sent as hex). */
export const toHex = (bytes: Uint8Array) => Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('')
