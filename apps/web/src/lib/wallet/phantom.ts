/**
 * Phantom's universal link that opens a page in the Phantom in-app browser (mobile without the extension:
 * docs/product.md#disconnect-and-account-change).
 */
export const phantomBrowseUrl = (href: string, origin: string) =>
  `https://phantom.app/ul/browse/${encodeURIComponent(href)}?ref=${encodeURIComponent(origin)}`
