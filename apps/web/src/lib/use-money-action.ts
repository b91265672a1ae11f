import { type UseMutationOptions, useMutation, useQueryClient } from '@tanstack/react-query'
import { useRef, useState } from 'react'
import { ApiError } from './api-client.ts'
import { actionKeys } from './idempotency.ts'
import { invalidateAfter, type MoneyAction } from './query-keys.ts'

/** The action's variables as JSON, bigints as decimal strings: two taps with the same are the same action. */
const variablesText = (variables: unknown) =>
  JSON.stringify(variables ?? null, (_, value) => (typeof value === 'bigint' ? value.toString() : value))

/** Anything but the server's answer (a timeout, a lost connection, an HTTP error) leaves the outcome unknown. */
const notAnAnswer = (error: unknown) => !(error instanceof ApiError)

export interface MoneyActionOptions<D, V> extends Omit<UseMutationOptions<D, Error, V>, 'mutationFn'> {
  /** The call, sent with the action's Idempotency-Key. */
  mutationFn: (variables: V, idempotencyKey: string) => Promise<D>
  /** What identifies the action among its variables (default: all of them). */
  inputOf?: (variables: V) => string
  /** Whether a failure left the outcome unknown, so that a retry reuses the key (default: no answer from the server). */
  unanswered?: (error: unknown) => boolean
  /** Its entry of the one invalidation map (query-keys.ts): what to refetch once it has settled, done or refused. */
  invalidates?: MoneyAction
}

/**
 * A user action that moves money or money state, as a TanStack Query mutation (docs/architecture.md#web-app): its calls
 * carry one Idempotency-Key per action, the same again when the same action is retried after a call without an answer
 * (see idempotency.ts); and it runs once at a time: a second tap while it runs is ignored at once, before React has
 * re-rendered the button as disabled. A double tap makes one request, one effect and one toast. The guard holds
 * until the mutation has settled, its refresh included, so the button is never enabled over stale data.
 */
export function useMoneyAction<D, V = void>({
  mutationFn,
  inputOf = variablesText,
  unanswered = notAnAnswer,
  invalidates,
  ...options
}: MoneyActionOptions<D, V>) {
  const queryClient = useQueryClient()
  const [keys] = useState(() => actionKeys({ unanswered }))
  const running = useRef(false)
  const mutation = useMutation<D, Error, V>({
    ...options,
    mutationFn: (variables) => keys.call(inputOf(variables), (key) => mutationFn(variables, key)),
    onSettled: async (...args) => {
      try {
        await options.onSettled?.(...args)
        if (invalidates) await invalidateAfter(queryClient, invalidates)
      } finally {
        running.current = false
      }
    },
  })
  const mutate: typeof mutation.mutate = (...args) => {
    if (running.current) return
    running.current = true
    mutation.mutate(...args)
  }
  return { ...mutation, mutate }
}
