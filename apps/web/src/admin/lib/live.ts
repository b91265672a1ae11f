import type { LiveEvent } from '@solpledge/contract/client'
import type { QueryKey } from '@tanstack/react-query'
import { firstScreenDone } from '@/lib/after-first-screen.ts'
import { LiveChannel } from '@/lib/live/channel.ts'
import { liveUrl, useChannelRefresh } from '@/lib/live/use-live.ts'
import { getAdminSession, onAdminSessionChange } from './session.ts'

/**
 * How often the console reads again what changes without a push: the jobs' lag and the chain's holdings (the hot
 * wallet refilled from outside, time passing). Everything else follows the console topic.
 */
export const SAFETY_REFRESH_MS = 5 * 60_000

let channel: LiveChannel | null = null

/** The console's own channel, authenticated by the console session (docs/architecture.md "Live updates"). */
export function consoleChannel(): LiveChannel {
  if (channel) return channel
  const created = new LiveChannel({
    url: liveUrl,
    ready: firstScreenDone(),
    auth: () => {
      const session = getAdminSession()
      return session ? { op: 'auth', admin_token: session.token } : null
    },
  })
  let token = getAdminSession()?.token
  onAdminSessionChange(() => {
    if (getAdminSession()?.token === token) return
    token = getAdminSession()?.token
    created.identityChanged()
  })
  channel = created
  return created
}

/** Reads the queries under `queryKey` again after the console events `match` accepts (and on a snapshot). */
export const useConsoleRefresh = (queryKey: QueryKey, match: (event: LiveEvent<'console'>) => boolean) =>
  useChannelRefresh(consoleChannel, 'console', queryKey, { match })
