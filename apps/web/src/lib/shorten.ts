/** A long identifier (transaction signature, address) for a narrow screen: its start and end around an ellipsis. */
export const shorten = (text: string, keep = 6) =>
  text.length <= keep * 2 + 1 ? text : `${text.slice(0, keep)}…${text.slice(-keep)}`
