import { api, LOGIN_TYPE } from '@solpledge/contract/client'
import { call, send } from '@/lib/api-client.ts'
import { toHex } from '@/lib/format.ts'

/** Whether the wallet is registered, i.e. bound to a referrer. */
export const isRegistered = async (address: string) => (await call(api.isReg, { address })).is_reg === 1

/**
 * Signs in: a single-use sign-in message from the server, its UTF-8 bytes signed by the wallet, the hex
 * signature sent with the invite code. Resolves the envelope: the user info with the token, and the server's msg.
 * See docs/product.md#login.
 */
export async function signIn(
  address: string,
  inviteCode: string,
  signMessage: (message: Uint8Array) => Promise<Uint8Array>,
) {
  const { message } = await call(api.nonce, { address })
  const signature = await signMessage(new TextEncoder().encode(message))
  return send(api.registerThird, {
    type: LOGIN_TYPE,
    address,
    sign: toHex(signature),
    invite_code: inviteCode,
    message,
  })
}
