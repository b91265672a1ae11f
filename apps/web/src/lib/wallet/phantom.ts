/** Phantom's universal link that opens a page in the Phantom in-app browser (SPEC §4, mobile without the extension). */
export const phantomBrowseUrl = (href: string, origin: string) =>
  `https://phantom.app/ul/browse/${encodeURIComponent(href)}?ref=${encodeURIComponent(origin)}`
