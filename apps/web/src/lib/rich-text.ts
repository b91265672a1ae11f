/**
 * Notice and campaign bodies are operator content in a restricted HTML subset, the allow-list of the contract
 * (packages/contract/src/rich-text.ts; the server sanitizes every body with it when it is saved). They are never
 * injected as HTML: the browser's parser (DOMParser: an inert document, nothing runs or loads) reads the markup, and
 * this module keeps of it a small tree of allow-listed elements, which features/notice/components/rich-text.tsx turns
 * into React elements (text always as text). Dropped elements go with their content (script, style, iframe, …), other
 * unknown ones are replaced by their content (span, font, …); attributes are dropped except a checked href, src and
 * alt. The console's editor writes its markup back through the same tree (`toAllowedHtml`), so that it stores only
 * what the app shows.
 */
import {
  RICH_DROP,
  RICH_MAX_DEPTH,
  RICH_RENAME,
  RICH_TAGS,
  type RichTag,
  safeHref,
  safeImageSrc,
} from '@solpledge/contract/client'

export type { RichTag }
export { safeHref, safeImageSrc }

export interface RichElement {
  tag: RichTag
  /** a: a checked link (a path of this site, an anchor, or an allowed scheme). */
  href?: string
  /** img: a checked image address (a path of this site or https). */
  src?: string
  alt?: string
  children: RichNode[]
}
export type RichNode = string | RichElement

const KEEP = new Set<string>(RICH_TAGS)
const DROP = new Set<string>(RICH_DROP)

/** One node still to read, the list its result joins, and the number of kept elements above it. */
interface Pending {
  node: ChildNode
  into: RichNode[]
  depth: number
}

/** The allow-listed nodes below a parsed element, read without recursion (the parser nests without limit). */
function read(root: Element): RichNode[] {
  const out: RichNode[] = []
  const pending: Pending[] = []
  const later = (parent: Element, into: RichNode[], depth: number) => {
    for (let child = parent.lastChild; child; child = child.previousSibling) pending.push({ node: child, into, depth })
  }
  later(root, out, 0)
  for (let next = pending.pop(); next; next = pending.pop()) {
    const { node, into, depth } = next
    if (node.nodeType === Node.TEXT_NODE) {
      into.push((node as Text).data)
      continue
    }
    if (node.nodeType !== Node.ELEMENT_NODE) continue
    const element = node as Element
    const name = element.localName
    if (DROP.has(name) || element.namespaceURI !== 'http://www.w3.org/1999/xhtml') continue
    const tag = (KEEP.has(name) ? name : RICH_RENAME[name]) as RichTag | undefined
    if (!tag || depth >= RICH_MAX_DEPTH) {
      later(element, into, depth)
      continue
    }
    if (tag === 'img') {
      const src = safeImageSrc(element.getAttribute('src'))
      if (src) into.push({ tag, src, alt: element.getAttribute('alt') ?? '', children: [] })
      continue
    }
    // A link without a safe target is plain text.
    const href = tag === 'a' ? safeHref(element.getAttribute('href')) : null
    if (tag === 'a' && !href) {
      later(element, into, depth)
      continue
    }
    const kept: RichElement = href ? { tag, href, children: [] } : { tag, children: [] }
    into.push(kept)
    later(element, kept.children, depth + 1)
  }
  return out
}

/** Reads notice markup into allow-listed nodes. */
export function parseRichText(html: string): RichNode[] {
  const document = new DOMParser().parseFromString(html, 'text/html')
  return tidy(read(document.body))
}

/** Joins adjacent text, drops whitespace-only text inside lists. */
function tidy(nodes: RichNode[], parent?: RichTag): RichNode[] {
  const out: RichNode[] = []
  for (const node of nodes) {
    if (typeof node === 'string') {
      if ((parent === 'ul' || parent === 'ol') && node.trim() === '') continue
      const last = out[out.length - 1]
      if (typeof last === 'string') out[out.length - 1] = last + node
      else out.push(node)
      continue
    }
    node.children = tidy(node.children, node.tag)
    out.push(node)
  }
  return out
}

const escapeText = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
const escapeAttribute = (text: string) => escapeText(text).replace(/"/g, '&quot;')

/** Writes allow-listed nodes as markup: only their tags, a checked href, src and alt, and escaped text. */
export function serializeRichText(nodes: readonly RichNode[]): string {
  return nodes
    .map((node) => {
      if (typeof node === 'string') return escapeText(node)
      if (node.tag === 'br' || node.tag === 'hr') return `<${node.tag}>`
      if (node.tag === 'img')
        return `<img src="${escapeAttribute(node.src ?? '')}" alt="${escapeAttribute(node.alt ?? '')}">`
      const open = node.tag === 'a' ? `<a href="${escapeAttribute(node.href ?? '')}">` : `<${node.tag}>`
      return `${open}${serializeRichText(node.children)}</${node.tag}>`
    })
    .join('')
}

/** Any markup (an editor's, a paste's) reduced to the allow-list: what the app would show of it, as markup. */
export function toAllowedHtml(html: string): string {
  return serializeRichText(parseRichText(html))
}
