/** Lower-case hex of bytes, e.g. a wallet signature (SPEC §9: the signature is sent as hex). */
export const toHex = (bytes: Uint8Array) => Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('')

/** A timestamp for people, in the interface language: '17 Jul 2024, 09:30'. Unparseable input is shown as it is. */
export function formatDateTime(iso: string, language: string | undefined) {
  const date = new Date(iso)
  if (Number.isNaN(date.getTime())) return iso
  return new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' }).format(date)
}
