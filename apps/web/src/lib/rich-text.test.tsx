// @vitest-environment happy-dom
import { RICH_ATTRIBUTES, RICH_DROP, RICH_RENAME, RICH_TAGS } from '@solpledge/contract/client'
import { HOSTILE, HOSTILE_CLEAN } from '@solpledge/test-fixtures'
import { describe, expect, it } from 'vitest'
import { parseRichText, type RichNode, safeHref, safeImageSrc, serializeRichText, toAllowedHtml } from './rich-text.ts'

/** Every tag and attribute the tree holds, to check nothing outside the allow-list gets through. */
function walk(nodes: readonly RichNode[], seen: { tags: Set<string>; attrs: Set<string>; text: string[] }) {
  for (const node of nodes) {
    if (typeof node === 'string') {
      seen.text.push(node)
      continue
    }
    seen.tags.add(node.tag)
    for (const key of Object.keys(node)) if (key !== 'tag' && key !== 'children') seen.attrs.add(key)
    walk(node.children, seen)
  }
  return seen
}
const scan = (html: string) => walk(parseRichText(html), { tags: new Set(), attrs: new Set(), text: [] })

describe('notice rich text', () => {
  it('keeps the allowed structure with text as text', () => {
    expect(
      parseRichText('<p>Hello <strong>bold</strong> &amp; <em>it</em></p><ul><li>one</li><li>two</li></ul>'),
    ).toEqual([
      { tag: 'p', children: ['Hello ', { tag: 'strong', children: ['bold'] }, ' & ', { tag: 'em', children: ['it'] }] },
      {
        tag: 'ul',
        children: [
          { tag: 'li', children: ['one'] },
          { tag: 'li', children: ['two'] },
        ],
      },
    ])
    expect(parseRichText('<h1>T</h1><b>b</b><i>i</i><del>d</del>')).toEqual([
      { tag: 'h2', children: ['T'] },
      { tag: 'strong', children: ['b'] },
      { tag: 'em', children: ['i'] },
      { tag: 's', children: ['d'] },
    ])
    expect(parseRichText('a<br>b<br/>c<hr>')).toEqual([
      'a',
      { tag: 'br', children: [] },
      'b',
      { tag: 'br', children: [] },
      'c',
      { tag: 'hr', children: [] },
    ])
  })

  it('reads plain text (no markup) as one text node, angle brackets included', () => {
    expect(parseRichText('2 < 3 and 5 > 4')).toEqual(['2 < 3 and 5 > 4'])
    expect(parseRichText('')).toEqual([])
  })

  it('drops scripts, styles, frames and event handlers with their content', () => {
    const seen = scan(
      '<p onclick="alert(1)" style="color:red" class="x">ok</p><script>alert(1)</script>' +
        '<style>p{}</style><iframe src="https://evil.example"></iframe><svg onload="alert(1)"><text>svg</text></svg>' +
        '<img src=x onerror=alert(1)><object data="x">obj</object><SCRIPT>alert(2)</SCRIPT >' +
        '<template><p>t</p></template><noscript><p>n</p></noscript><textarea></textarea><p>after</p>',
    )
    expect([...seen.tags].sort()).toEqual(['p'])
    expect([...seen.attrs]).toEqual([])
    expect(seen.text.join('|')).toBe('ok|after')
  })

  it('replaces unknown and inline layout elements by their content, keeps blocks apart', () => {
    expect(parseRichText('<div><span style="x">in <font color="red">side</font></span></div><div>next</div>')).toEqual([
      { tag: 'div', children: ['in side'] },
      { tag: 'div', children: ['next'] },
    ])
    expect(parseRichText('<table><tbody><tr><td>cell</td></tr></tbody></table>')).toEqual([
      { tag: 'div', children: [{ tag: 'div', children: [{ tag: 'div', children: ['cell'] }] }] },
    ])
    expect(parseRichText('<custom-el>x</custom-el>')).toEqual(['x'])
  })

  it('keeps only safe link targets; other links become text', () => {
    const links = [
      '/notice/detail/1',
      'https://example.org/a?b=c#d',
      'http://example.org',
      'mailto:ops@example.org',
      '#top',
    ]
    for (const href of links)
      expect(parseRichText(`<a href="${href}">x</a>`)).toEqual([{ tag: 'a', href, children: ['x'] }])
    const unsafe = [
      'javascript:alert(1)',
      ' JaVaScRiPt:alert(1)',
      'java&#x09;script:alert(1)',
      'data:text/html,<script>',
      'vbscript:x',
      '//evil.example',
      '/\\evil.example',
      'ftp://x',
      '',
    ]
    for (const href of unsafe) expect(parseRichText(`<a href="${href}">x</a>`), href).toEqual(['x'])
    expect(parseRichText('<a>no href</a>')).toEqual(['no href'])
    expect(parseRichText('<a href="/x" target="_self" onmouseover="x">t</a>')).toEqual([
      { tag: 'a', href: '/x', children: ['t'] },
    ])
  })

  it('keeps only local or https images, with their alt text', () => {
    expect(parseRichText('<img src="/banners/a.svg" alt="A" width="10">')).toEqual([
      { tag: 'img', src: '/banners/a.svg', alt: 'A', children: [] },
    ])
    expect(parseRichText("<img src='https://cdn.example/x.png'>")).toEqual([
      { tag: 'img', src: 'https://cdn.example/x.png', alt: '', children: [] },
    ])
    for (const src of ['http://x/a.png', 'javascript:x', 'data:image/png;base64,AAAA', '//cdn/x.png', 'x.png'])
      expect(parseRichText(`<img src="${src}" alt="a">`), src).toEqual([])
  })

  it('closes what browsers close implicitly and survives broken markup', () => {
    expect(parseRichText('<p>one<p>two<ul><li>a<li>b</ul>')).toEqual([
      { tag: 'p', children: ['one'] },
      { tag: 'p', children: ['two'] },
      {
        tag: 'ul',
        children: [
          { tag: 'li', children: ['a'] },
          { tag: 'li', children: ['b'] },
        ],
      },
    ])
    expect(parseRichText('<p><strong>unclosed')).toEqual([
      { tag: 'p', children: [{ tag: 'strong', children: ['unclosed'] }] },
    ])
    expect(parseRichText('</em>stray</p>')).toEqual(['stray'])
    expect(parseRichText('<a href="/a">one<a href="/b">two</a>')).toEqual([
      { tag: 'a', href: '/a', children: ['one'] },
      { tag: 'a', href: '/b', children: ['two'] },
    ])
    expect(parseRichText('<p title="a > b">x</p><!-- note --><!DOCTYPE html><p')).toEqual([
      { tag: 'p', children: ['x'] },
    ])
    expect(parseRichText('<ul>\n  <li>a</li>\n</ul>')).toEqual([
      { tag: 'ul', children: [{ tag: 'li', children: ['a'] }] },
    ])
  })

  it('flattens very deep nesting instead of recursing without end', () => {
    const deep = `${'<em>'.repeat(5000)}deep${'</em>'.repeat(5000)}`
    const seen = scan(deep)
    expect(seen.text.join('')).toBe('deep')
  })

  it('decodes character references as the browser does', () => {
    expect(parseRichText('&lt;b&gt; &quot;q&quot; &#39;s&#39; &#x4e2d;&#25991; &nbsp;&unknown; &hearts; &#0;')).toEqual(
      ['<b> "q" \'s\' 中文 \u00a0&unknown; ♥ \ufffd'],
    )
  })

  it("uses the contract's allow-list: its tags, renames, dropped tags and attributes, nothing else", () => {
    for (const tag of RICH_TAGS) {
      const html =
        tag === 'a' ? '<a href="/x">t</a>' : tag === 'img' ? '<img src="/i.png" alt="t">' : `<${tag}>t</${tag}>`
      expect(scan(html).tags, tag).toEqual(new Set([tag]))
    }
    for (const [from, to] of Object.entries(RICH_RENAME)) {
      const inside = ['tr', 'td', 'th', 'caption'].includes(from)
        ? `<table><${from}>t</${from}></table>`
        : `<${from}>t</${from}>`
      expect(scan(inside).tags.has(to), from).toBe(true)
    }
    for (const tag of RICH_DROP) {
      // embed and frame are void elements: nothing inside them to drop.
      const seen = scan(['embed', 'frame'].includes(tag) ? `<${tag} src="/x">kept` : `<${tag}>gone</${tag}>kept`)
      expect([seen.text.join('').includes('gone'), [...seen.tags]], tag).toEqual([false, []])
    }
    const everyAttribute = scan(
      '<a href="/a" title="t" class="c">x</a><img src="/i.png" alt="a" width="1" onerror="x">',
    )
    expect([...everyAttribute.attrs].sort()).toEqual([...new Set(Object.values(RICH_ATTRIBUTES).flat())].sort())
  })

  it('reads the hostile body of the server test to the same clean tree the server stores', () => {
    expect(toAllowedHtml(HOSTILE)).toBe(toAllowedHtml(HOSTILE_CLEAN))
    expect(parseRichText(HOSTILE)).toEqual(parseRichText(HOSTILE_CLEAN))
  })

  it('checks link and image addresses', () => {
    expect(safeHref('/pledge')).toBe('/pledge')
    expect(safeHref('/')).toBe('/')
    expect(safeHref('javascript:alert(1)')).toBeNull()
    expect(safeImageSrc('/banners/stake.svg')).toBe('/banners/stake.svg')
    expect(safeImageSrc('https://x/y.png')).toBe('https://x/y.png')
    expect(safeImageSrc('http://x/y.png')).toBeNull()
  })
})

describe("the console editor's markup", () => {
  it('keeps the allowed tags, a checked href, src and alt, and escapes text', () => {
    const html =
      '<h2>Title</h2><p>A <strong>bold</strong> &amp; <em>new</em> <a href="/finance">link</a> 1 &lt; 2</p>' +
      '<ul><li>one</li><li>two</li></ul><p><img src="/uploads/a.png" alt="A &quot;dot&quot;"><br></p>'
    expect(toAllowedHtml(html)).toBe(html)
  })

  it("writes what a browser's editor makes in allowed tags and drops the rest with their attributes", () => {
    expect(
      toAllowedHtml(
        '<div style="color:red" onclick="x()"><b>Bold</b> <i>it</i> <span class="s">plain</span>' +
          ' <script>alert(1)</script><a href="javascript:alert(1)">bad</a></div><img src="x" onerror="alert(1)">',
      ),
    ).toBe('<div><strong>Bold</strong> <em>it</em> plain bad</div>')
  })

  it('reads back to the same tree it was written from', () => {
    const nodes = parseRichText('<ol><li>a <code>&lt;b&gt;</code></li></ol><blockquote>"q" \' &amp;</blockquote>')
    expect(parseRichText(serializeRichText(nodes))).toEqual(nodes)
  })
})
