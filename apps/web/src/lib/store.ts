import { useSyncExternalStore } from 'react'

/** A minimal external store: readable from React (use) and from plain modules (get/set), e.g. the API client. */
export function createStore<T>(initial: T) {
  let state = initial
  const listeners = new Set<() => void>()
  const subscribe = (listener: () => void) => {
    listeners.add(listener)
    return () => {
      listeners.delete(listener)
    }
  }
  const get = () => state
  return {
    get,
    subscribe,
    set(next: T) {
      state = next
      for (const listener of listeners) listener()
    },
    use: () => useSyncExternalStore(subscribe, get),
  }
}
