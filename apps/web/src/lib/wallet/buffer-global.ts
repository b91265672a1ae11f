import { PublicKey } from '@solana/web3.js'

/**
 * @solana/spl-token calls the Node global `Buffer`, which browsers lack. web3.js bundles the `buffer` package; its
 * Buffer is the constructor of any PublicKey's bytes, so spl-token gets that same implementation without another
 * copy or dependency. Import this module before @solana/spl-token.
 */
if (typeof globalThis.Buffer === 'undefined') {
  globalThis.Buffer = PublicKey.default.toBuffer().constructor as typeof Buffer
}
