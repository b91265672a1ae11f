/**
 * The one allow-list of rich text (notice and campaign bodies: operator content in a restricted HTML subset). The
 * server sanitizes every body with it when it is saved (apps/server/src/lib/rich-text.ts, with sanitize-html), so a
 * stored body is already clean; the web app reads bodies with the browser's parser into the same list
 * (apps/web/src/lib/rich-text.ts) and never injects them as HTML; the console's editor writes its markup through it.
 */

/** The tags a body may hold. */
export const RICH_TAGS = [
  'p',
  'div',
  'h2',
  'h3',
  'h4',
  'blockquote',
  'pre',
  'ul',
  'ol',
  'li',
  'strong',
  'em',
  'u',
  's',
  'code',
  'sub',
  'sup',
  'mark',
  'br',
  'hr',
  'a',
  'img',
] as const
export type RichTag = (typeof RICH_TAGS)[number]

/**
 * Tags written as an allowed one: headings shift down (the screen has the title), the old inline names become the
 * semantic ones, and layout blocks keep only their separation (tables read as stacked blocks on a phone).
 */
export const RICH_RENAME: Readonly<Record<string, RichTag>> = {
  section: 'div',
  article: 'div',
  header: 'div',
  footer: 'div',
  figure: 'div',
  figcaption: 'div',
  table: 'div',
  caption: 'div',
  tr: 'div',
  td: 'div',
  th: 'div',
  h1: 'h2',
  h5: 'h4',
  h6: 'h4',
  b: 'strong',
  i: 'em',
  strike: 's',
  del: 's',
}

/** Tags dropped together with everything inside them; any other tag is replaced by its content. */
export const RICH_DROP = [
  'script',
  'style',
  'iframe',
  'frame',
  'frameset',
  'object',
  'embed',
  'applet',
  'template',
  'noscript',
  'noembed',
  'svg',
  'math',
  'head',
  'title',
  'textarea',
  'select',
  'option',
  'button',
  'canvas',
  'audio',
  'video',
  'xmp',
  'plaintext',
] as const

/** The only attributes kept (each checked: `safeHref`, `safeImageSrc`); every other attribute is dropped. */
export const RICH_ATTRIBUTES: Readonly<Partial<Record<RichTag, readonly string[]>>> = {
  a: ['href'],
  img: ['src', 'alt'],
}

/** The URL schemes of links (besides paths of this site and in-page anchors) and of images (besides paths). */
export const RICH_LINK_SCHEMES = ['http', 'https', 'mailto'] as const
export const RICH_IMAGE_SCHEMES = ['https'] as const

/** Deeper nesting is flattened (keeps rendering cheap whatever the input). */
export const RICH_MAX_DEPTH = 24

/** An address of one of the schemes, with something after the scheme and no space, quote or angle bracket. */
const withScheme = (value: string, list: readonly string[]) =>
  list.some((scheme) => {
    const prefix = scheme === 'mailto' ? 'mailto:' : `${scheme}://`
    return value.toLowerCase().startsWith(prefix) && /^[^\s<>"]+$/.test(value.slice(prefix.length))
  })

/** A link a reader may follow: a path of this site, an in-page anchor, or one of RICH_LINK_SCHEMES. Otherwise null. */
export function safeHref(value: string | null | undefined): string | null {
  const href = value?.trim() ?? ''
  if (/^\/(?![/\\])/.test(href) || href === '/' || /^#[\w-]*$/.test(href)) return href
  if (withScheme(href, RICH_LINK_SCHEMES)) return href
  return null
}

/** An image the app may load: a path of this site or one of RICH_IMAGE_SCHEMES. Otherwise null. */
export function safeImageSrc(value: string | null | undefined): string | null {
  const src = value?.trim() ?? ''
  if (/^\/(?![/\\])[^\s<>"]*$/.test(src)) return src
  if (withScheme(src, RICH_IMAGE_SCHEMES)) return src
  return null
}
