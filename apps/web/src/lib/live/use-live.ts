import { API_BASE, LIVE_PATH, type LiveEvent, type LiveTopic, PUBLIC_TOPICS } from '@solpledge/contract/client'
import { type QueryClient, type QueryKey, useQueryClient } from '@tanstack/react-query'
import { useEffect, useRef } from 'react'
import { firstScreenDone } from '../after-first-screen.ts'
import { getToken, getWalletAddress, onSessionChange, onWalletAddressChange } from '../session.ts'
import { LiveChannel, type TopicHandler } from './channel.ts'

/** The channel's URL on the page's own origin (the API's). */
export const liveUrl = () =>
  `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}${API_BASE}${LIVE_PATH}`

/** Reads a query again for the live channel: joins a fetch in flight rather than starting a second one. */
export const refetch = (queryClient: QueryClient, queryKey: QueryKey) =>
  queryClient.invalidateQueries({ queryKey }, { cancelRefetch: false })

/** Refetches that events ask for, by query key: a burst of events reads each query once. */
const due = new Map<string, ReturnType<typeof setTimeout>>()

/**
 * Reads `queryKey` again in `delayMs` (a moment, so that a burst of events reads it once). Public topics spread their
 * readers over a few seconds: an operator's edit does not make every client ask at the same instant.
 */
export function refetchSoon(queryClient: QueryClient, queryKey: QueryKey, delayMs = 250) {
  const id = JSON.stringify(queryKey)
  if (due.has(id)) return
  due.set(
    id,
    setTimeout(() => {
      due.delete(id)
      void refetch(queryClient, queryKey)
    }, delayMs),
  )
}

/** How long a public topic's reader waits before reading again: 0.25 to 3 s. */
const spreadDelay = () => 250 + Math.random() * 2_750

const isPublic = (topic: LiveTopic) => (PUBLIC_TOPICS as readonly string[]).includes(topic)

/** Calls `handler` with the topic's events of `channel` while mounted (and `enabled`). */
export function useChannelTopic<T extends LiveTopic>(
  channel: () => LiveChannel,
  topic: T,
  handler: TopicHandler<T>,
  enabled = true,
) {
  const ref = useRef(handler)
  ref.current = handler
  useEffect(() => {
    if (!enabled) return
    return channel().subscribe(topic, {
      onEvent: (data) => ref.current.onEvent(data),
      onSnapshot: () => ref.current.onSnapshot(),
    })
  }, [channel, topic, enabled])
}

export interface RefreshOptions<T extends LiveTopic> {
  /** Which events make the data stale (every event of the topic without it). */
  match?: (event: LiveEvent<T>) => boolean
  enabled?: boolean
}

/**
 * Keeps the queries under `queryKey` current by reading them again: on a snapshot, and shortly after each event of
 * `topic` that `match` accepts. For data an event does not carry whole. For a list shown under a filter (a status tab),
 * pass the key of every filter's list: the one on screen reads again, the others are marked stale and read again when
 * shown (with only the shown filter's key, another tab opened within the queries' stale time kept what it had).
 */
export function useChannelRefresh<T extends LiveTopic>(
  channel: () => LiveChannel,
  topic: T,
  queryKey: QueryKey,
  { match, enabled = true }: RefreshOptions<T> = {},
) {
  const queryClient = useQueryClient()
  const key = useRef(queryKey)
  key.current = queryKey
  useChannelTopic(
    channel,
    topic,
    {
      onEvent: (event) => {
        if (!match || match(event)) refetchSoon(queryClient, key.current, isPublic(topic) ? spreadDelay() : undefined)
      },
      onSnapshot: () => refetch(queryClient, key.current),
    },
    enabled,
  )
}

let users: LiveChannel | null = null

/**
 * The users' app's channel, authenticated by the session while there is one (a new one reconnects it). It connects
 * after the first screen: that screen's data was just read, and its snapshot is taken then.
 */
export function usersChannel(): LiveChannel {
  if (users) return users
  const auth = () => {
    const token = getToken()
    const address = getWalletAddress()
    return token && address ? { op: 'auth' as const, token, address } : null
  }
  const channel = new LiveChannel({ url: liveUrl, auth, ready: firstScreenDone() })
  let identity = JSON.stringify(auth())
  const changed = () => {
    const next = JSON.stringify(auth())
    if (next === identity) return
    identity = next
    channel.identityChanged()
  }
  onSessionChange(changed)
  onWalletAddressChange(changed)
  users = channel
  return channel
}

/** useChannelTopic on the users' app's channel. */
export const useLiveTopic = <T extends LiveTopic>(topic: T, handler: TopicHandler<T>, enabled = true) =>
  useChannelTopic(usersChannel, topic, handler, enabled)

/** useChannelRefresh on the users' app's channel. */
export const useLiveRefresh = <T extends LiveTopic>(topic: T, queryKey: QueryKey, options?: RefreshOptions<T>) =>
  useChannelRefresh(usersChannel, topic, queryKey, options)
