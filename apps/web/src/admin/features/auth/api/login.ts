import { adminApi } from '@solpledge/contract/admin'
import { adminCall, adminSend } from '@/admin/lib/api-client.ts'
import { toHex } from '@/lib/format.ts'

/**
 * Signs an operator in: the same signed-nonce flow as the user login (a single-use sign-in message from the server,
 * its UTF-8 bytes signed by the wallet, the hex signature sent back), on the console's own routes, which refuse
 * addresses that are not on the operator list. Resolves the envelope: the session with its token, and the msg.
 */
export async function signInOperator(address: string, signMessage: (message: Uint8Array) => Promise<Uint8Array>) {
  const { message } = await adminCall(adminApi.adminNonce, { address })
  const signature = await signMessage(new TextEncoder().encode(message))
  return adminSend(adminApi.adminLogin, { address, sign: toHex(signature), message })
}
