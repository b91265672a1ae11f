/** A LIKE pattern for the values that start with `text`: its '%', '_' and backslashes match only themselves. */
export const startingWith = (text: string): string => `${text.replace(/[\\%_]/g, '\\$&')}%`
