// Rich-text bodies (notices, campaigns) are sanitized when they are saved, with the contract's one allow-list
// (packages/contract/src/rich-text.ts), so a stored body is already clean: the app's reads serve it as stored.
import {
  RICH_ATTRIBUTES,
  RICH_DROP,
  RICH_IMAGE_SCHEMES,
  RICH_LINK_SCHEMES,
  RICH_MAX_DEPTH,
  RICH_RENAME,
  RICH_TAGS,
  safeHref,
  safeImageSrc,
} from '@solpledge/contract'
import sanitizeHtml from 'sanitize-html'

const NONE: sanitizeHtml.Attributes = {}

export const richTextOptions: sanitizeHtml.IOptions = {
  allowedTags: [...RICH_TAGS],
  allowedAttributes: Object.fromEntries(Object.entries(RICH_ATTRIBUTES).map(([tag, names]) => [tag, [...names]])),
  allowedSchemes: [...RICH_LINK_SCHEMES],
  allowedSchemesByTag: { img: [...RICH_IMAGE_SCHEMES] },
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  nonTextTags: [...RICH_DROP],
  nestingLimit: RICH_MAX_DEPTH,
  transformTags: {
    ...Object.fromEntries(
      Object.entries(RICH_RENAME).map(([from, to]) => [from, sanitizeHtml.simpleTransform(to, {})]),
    ),
    // Each address checked as the app checks it; what fails loses its attribute, and with it its tag (below).
    a: (tagName, attribs) => {
      const href = safeHref(attribs.href)
      return { tagName, attribs: href ? { href } : NONE }
    },
    img: (tagName, attribs) => {
      const src = safeImageSrc(attribs.src)
      return { tagName, attribs: src ? { src, alt: attribs.alt ?? '' } : NONE }
    },
  },
  // A link without a safe target is its text; an image without a safe address is nothing.
  exclusiveFilter: (frame) =>
    (frame.tag === 'a' && !frame.attribs.href) || (frame.tag === 'img' && !frame.attribs.src) ? 'excludeTag' : false,
}

/** Only text and images, to tell a body that shows nothing. */
const visibleOptions: sanitizeHtml.IOptions = {
  allowedTags: ['img'],
  allowedAttributes: { img: ['src'] },
  nonTextTags: [...RICH_DROP],
}

/**
 * A body reduced to the allow-list. One that shows nothing (whitespace, non-breaking spaces, empty paragraphs or line
 * breaks: what the console's editor leaves of a cleared text) is stored empty, so that reads can tell it by `body = ''`.
 * An image alone is content.
 */
export function sanitizeRichText(body: string): string {
  const clean = sanitizeHtml(body, richTextOptions)
  return sanitizeHtml(clean, visibleOptions).trim() === '' ? '' : clean
}
