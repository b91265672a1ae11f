/** A search form's fields as request fields: trimmed, and the empty ones left out (the API refuses empty strings). */
export function withoutEmpty<T extends Record<string, string>>(fields: T): Partial<T> {
  return Object.fromEntries(
    Object.entries(fields)
      .map(([key, value]) => [key, value.trim()])
      .filter(([, value]) => value !== ''),
  ) as Partial<T>
}
