/**
 * Notice bodies are operator content in a restricted HTML subset. They are never injected as HTML: this module reads
 * the markup into a small tree of allow-listed elements, which features/notice/components/rich-text.tsx turns into
 * React elements (text always as text). Whatever is not allowed is dropped with its content (script, style, iframe, …)
 * or replaced by its content (span, font, unknown tags); attributes are dropped except a checked href, src and alt.
 * The console's editor writes its markup back through the same tree (`toAllowedHtml`), so that it stores only what the
 * app shows.
 */

export type RichTag =
  | 'p'
  | 'div'
  | 'h2'
  | 'h3'
  | 'h4'
  | 'blockquote'
  | 'pre'
  | 'ul'
  | 'ol'
  | 'li'
  | 'strong'
  | 'em'
  | 'u'
  | 's'
  | 'code'
  | 'sub'
  | 'sup'
  | 'mark'
  | 'br'
  | 'hr'
  | 'a'
  | 'img'

export interface RichElement {
  tag: RichTag
  /** a: a checked link (a path of this site, http(s) or mailto). */
  href?: string
  /** img: a checked image address (a path of this site or https). */
  src?: string
  alt?: string
  children: RichNode[]
}
export type RichNode = string | RichElement

/** Tags kept as they are, and the ones renamed to an allowed tag. */
const KEEP: Record<string, RichTag> = {
  p: 'p',
  // Layout blocks keep their separation, nothing else (no attributes): tables read as stacked blocks on a phone.
  div: 'div',
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
  h2: 'h2',
  h3: 'h3',
  h4: 'h4',
  h5: 'h4',
  h6: 'h4',
  blockquote: 'blockquote',
  pre: 'pre',
  ul: 'ul',
  ol: 'ol',
  li: 'li',
  strong: 'strong',
  b: 'strong',
  em: 'em',
  i: 'em',
  u: 'u',
  s: 's',
  strike: 's',
  del: 's',
  code: 'code',
  sub: 'sub',
  sup: 'sup',
  mark: 'mark',
  br: 'br',
  hr: 'hr',
  a: 'a',
  img: 'img',
}

/** Dropped together with everything inside them. */
const DROP = new Set([
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
])

/** Elements whose content is raw text up to their end tag (skipped, as they are dropped anyway). */
const RAW_TEXT = new Set(['script', 'style', 'textarea', 'title', 'xmp', 'iframe', 'noscript', 'noembed', 'plaintext'])

const VOID = new Set([
  'area',
  'base',
  'br',
  'col',
  'embed',
  'hr',
  'img',
  'input',
  'link',
  'meta',
  'param',
  'source',
  'track',
  'wbr',
])

/** Block elements: starting one closes an open paragraph, as browsers do. */
const BLOCK = new Set([
  'p',
  'div',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'ul',
  'ol',
  'blockquote',
  'pre',
  'hr',
  'table',
  'section',
  'article',
  'header',
  'footer',
  'figure',
])

/** Deeper nesting is flattened (keeps rendering cheap whatever the input). */
const MAX_DEPTH = 24

const NAMED_ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
  copy: '©',
  reg: '®',
  trade: '™',
  hellip: '…',
  mdash: '—',
  ndash: '–',
  lsquo: '‘',
  rsquo: '’',
  ldquo: '“',
  rdquo: '”',
  middot: '·',
  bull: '•',
  times: '×',
  yen: '¥',
  euro: '€',
}

/** Decodes character references (&amp; &#39; &#x4e2d; …); unknown ones stay as written. */
export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]{1,6}|#[0-9]{1,7}|[a-z]{2,8});?/gi, (whole, ref: string) => {
    if (ref[0] === '#') {
      const code =
        ref[1] === 'x' || ref[1] === 'X' ? Number.parseInt(ref.slice(2), 16) : Number.parseInt(ref.slice(1), 10)
      const valid = code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff)
      return valid ? String.fromCodePoint(code) : '\ufffd'
    }
    return NAMED_ENTITIES[ref.toLowerCase()] ?? whole
  })
}

/** A link a reader may follow: a path of this site, an in-page anchor, http(s) or mailto. Otherwise null. */
export function safeHref(value: string | undefined): string | null {
  const href = value?.trim() ?? ''
  if (/^\/(?![/\\])/.test(href) || href === '/' || /^#[\w-]*$/.test(href)) return href
  if (/^(https?:\/\/|mailto:)[^\s<>"]+$/i.test(href)) return href
  return null
}

/** An image the app may load: a path of this site or https. Otherwise null. */
export function safeImageSrc(value: string | undefined): string | null {
  const src = value?.trim() ?? ''
  if (/^\/(?![/\\])[^\s<>"]*$/.test(src)) return src
  if (/^https:\/\/[^\s<>"]+$/i.test(src)) return src
  return null
}

interface Token {
  kind: 'text' | 'start' | 'end'
  name?: string
  text?: string
  attrs?: Record<string, string>
  selfClosing?: boolean
}

const ATTR = /([^\s"'>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/y

/** Splits markup into text, start and end tags. Never throws: anything unreadable is read as text. */
function tokenize(html: string): Token[] {
  const tokens: Token[] = []
  let i = 0
  const text = (value: string) => {
    if (value) tokens.push({ kind: 'text', text: decodeEntities(value) })
  }
  while (i < html.length) {
    const lt = html.indexOf('<', i)
    if (lt < 0) {
      text(html.slice(i))
      break
    }
    text(html.slice(i, lt))
    i = lt
    if (html.startsWith('<!--', i)) {
      const end = html.indexOf('-->', i + 4)
      i = end < 0 ? html.length : end + 3
      continue
    }
    if (html[i + 1] === '!' || html[i + 1] === '?') {
      const end = html.indexOf('>', i)
      i = end < 0 ? html.length : end + 1
      continue
    }
    const end = /^<\/([a-zA-Z][a-zA-Z0-9-]*)[^>]*>/.exec(html.slice(i, i + 256))
    if (end) {
      tokens.push({ kind: 'end', name: (end[1] as string).toLowerCase() })
      i += end[0].length
      continue
    }
    const start = /^<([a-zA-Z][a-zA-Z0-9-]*)/.exec(html.slice(i, i + 64))
    if (!start) {
      text('<')
      i += 1
      continue
    }
    const name = (start[1] as string).toLowerCase()
    i += start[0].length
    const attrs: Record<string, string> = {}
    let selfClosing = false
    let closed = false
    // Attributes up to the closing '>' (quoted values may contain '>').
    while (i < html.length) {
      while (i < html.length && /\s/.test(html[i] as string)) i++
      if (html[i] === '>') {
        i++
        closed = true
        break
      }
      if (html.startsWith('/>', i)) {
        selfClosing = true
        closed = true
        i += 2
        break
      }
      if (html[i] === '/') {
        i++
        continue
      }
      ATTR.lastIndex = i
      const attr = ATTR.exec(html)
      if (!attr) {
        i++
        continue
      }
      const key = (attr[1] as string).toLowerCase()
      if (!(key in attrs)) attrs[key] = decodeEntities(attr[2] ?? attr[3] ?? attr[4] ?? '')
      i = ATTR.lastIndex
    }
    // A tag cut off by the end of the text is no tag (as browsers read it).
    if (!closed) break
    tokens.push({ kind: 'start', name, attrs, selfClosing })
    if (RAW_TEXT.has(name) && !selfClosing) {
      const close = html.toLowerCase().indexOf(`</${name}`, i)
      i = close < 0 ? html.length : close
    }
  }
  return tokens
}

interface Open {
  name: string
  node: RichElement | null
  children: RichNode[]
  drop: boolean
}

/** Reads notice markup into allow-listed nodes. */
export function parseRichText(html: string): RichNode[] {
  const root: Open = { name: '#root', node: null, children: [], drop: false }
  const stack: Open[] = [root]
  const top = () => stack[stack.length - 1] as Open

  /** Closes the innermost open element: kept ones join their parent, others hand over their content. */
  const close = () => {
    const open = stack.pop() as Open
    const parent = top()
    if (open.drop) return
    if (open.node) {
      open.node.children = open.children
      parent.children.push(open.node)
    } else parent.children.push(...open.children)
  }
  const closeTo = (name: string) => {
    const at = stack.findLastIndex((open) => open.name === name)
    if (at <= 0) return
    while (stack.length > at) close()
  }
  const isOpen = (name: string, stopAt: readonly string[] = []) => {
    for (let k = stack.length - 1; k > 0; k--) {
      const open = stack[k] as Open
      if (open.name === name) return true
      if (stopAt.includes(open.name)) return false
    }
    return false
  }

  for (const token of tokenize(html)) {
    if (token.kind === 'text') {
      top().children.push(token.text as string)
      continue
    }
    const name = token.name as string
    if (token.kind === 'end') {
      if (name === 'br') top().children.push({ tag: 'br', children: [] })
      else closeTo(name)
      continue
    }
    // Implied ends, as browsers read them.
    if (BLOCK.has(name) && isOpen('p', ['li', 'blockquote', 'div', 'td', 'th'])) closeTo('p')
    if (name === 'li' && isOpen('li', ['ul', 'ol'])) closeTo('li')
    if (name === 'a' && isOpen('a')) closeTo('a')

    const dropped = DROP.has(name) || top().drop
    const tag = KEEP[name]
    let node: RichElement | null = null
    if (!dropped && tag && stack.length <= MAX_DEPTH) {
      node = { tag, children: [] }
      const attrs = token.attrs ?? {}
      if (tag === 'a') {
        const href = safeHref(attrs.href)
        // A link without a safe target is plain text.
        node = href ? { tag, href, children: [] } : null
      } else if (tag === 'img') {
        const src = safeImageSrc(attrs.src)
        node = src ? { tag, src, alt: attrs.alt ?? '', children: [] } : null
      }
    }
    if (VOID.has(name) || token.selfClosing) {
      if (node && !dropped) top().children.push(node)
      continue
    }
    stack.push({ name, node, children: [], drop: dropped })
  }
  while (stack.length > 1) close()
  return tidy(root.children)
}

/** Joins adjacent text, drops whitespace-only text inside lists and empty inline elements. */
function tidy(nodes: RichNode[], parent?: RichTag): RichNode[] {
  const out: RichNode[] = []
  for (const node of nodes) {
    if (typeof node === 'string') {
      if (parent && (parent === 'ul' || parent === 'ol') && node.trim() === '') continue
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
