import { useEffect, useState } from 'react'

/** `value` once it has stayed the same for `ms` milliseconds, e.g. a typed amount before asking for a quote. */
export function useDebouncedValue<T>(value: T, ms: number) {
  const [settled, setSettled] = useState(value)
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms)
    return () => clearTimeout(timer)
  }, [value, ms])
  return settled
}
