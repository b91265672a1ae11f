import { ADMIN_TOKEN_HEADER, roleAtLeast } from '@solpledge/contract'
import { APP_KEY, type ClientRoute } from '@solpledge/contract/client'
import { createApiClient } from '@/lib/api-client.ts'
import { requestLanguage } from '@/lib/language.ts'
import { toast } from '@/lib/toast.ts'
import { clearAdminSession, getAdminSession, useAdminSession } from './session.ts'

function adminHeaders() {
  const result: Record<string, string> = { 'app-key': APP_KEY, 'accept-language': requestLanguage() }
  const session = getAdminSession()
  if (session) result[ADMIN_TOKEN_HEADER] = session.token
  return result
}

/**
 * The console's instance of the app's one API client: the admin session's token instead of the user's; a -403 ends
 * the console session (not the user's).
 */
export const {
  call: adminCall,
  send: adminSend,
  upload: adminUpload,
  download: adminDownload,
} = createApiClient({
  fetch: (input, init) => globalThis.fetch(input, init),
  headers: adminHeaders,
  onSessionInvalid: (msg) => {
    toast.error(msg)
    clearAdminSession()
  },
})

/**
 * Whether the signed-in operator's role may call `route` (its `admin` role or stronger). Screens hide or disable the
 * writes it may not; the server refuses them anyway.
 */
export function useAllowed(route: ClientRoute) {
  const session = useAdminSession()
  return session !== null && route.admin !== undefined && roleAtLeast(session.role, route.admin)
}
