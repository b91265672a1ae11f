/** One changed leaf between two JSON values: its path ('pledge.minUsdt', 'finance[1].days') and both values. */
export interface Change {
  path: string
  before: unknown
  after: unknown
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/**
 * The leaves that differ between two JSON values, in a stable order: objects by key (sorted), arrays by index. A
 * leaf present on one side only has null on the other.
 */
export function diff(before: unknown, after: unknown, path = ''): Change[] {
  if (Array.isArray(before) && Array.isArray(after)) {
    const changes: Change[] = []
    for (let i = 0; i < Math.max(before.length, after.length); i++)
      changes.push(...diff(before[i] ?? null, after[i] ?? null, `${path}[${i}]`))
    return changes
  }
  if (isObject(before) && isObject(after)) {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort()
    return keys.flatMap((key) => diff(before[key] ?? null, after[key] ?? null, path ? `${path}.${key}` : key))
  }
  return JSON.stringify(before) === JSON.stringify(after) ? [] : [{ path, before, after }]
}
