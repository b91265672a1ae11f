import { type ReactNode, useMemo } from 'react'
import { Link } from 'react-router'
import { parseRichText, type RichNode } from '@/lib/rich-text.ts'

function render(nodes: readonly RichNode[]): ReactNode[] {
  return nodes.map((node, index) => {
    // Position keys: the tree is rebuilt whole whenever the markup changes.
    const key = index
    if (typeof node === 'string') return node
    const children = render(node.children)
    switch (node.tag) {
      case 'br':
        return <br key={key} />
      case 'hr':
        return <hr key={key} />
      case 'img':
        return <img key={key} src={node.src} alt={node.alt ?? ''} loading="lazy" />
      case 'a': {
        const href = node.href as string
        if (href.startsWith('/'))
          return (
            <Link key={key} to={href}>
              {children}
            </Link>
          )
        const external = /^https?:/i.test(href)
        return (
          <a key={key} href={href} {...(external ? { target: '_blank', rel: 'noopener noreferrer nofollow' } : {})}>
            {children}
          </a>
        )
      }
      default: {
        const Tag = node.tag
        return <Tag key={key}>{children}</Tag>
      }
    }
  })
}

/**
 * A notice body: operator markup read through the allow-list of lib/rich-text.ts and rendered as React elements.
 * Nothing of it is ever set as HTML.
 */
export function RichText({ html, className, lang }: { html: string; className?: string; lang?: string }) {
  const content = useMemo(() => render(parseRichText(html)), [html])
  return (
    <div className={className} lang={lang}>
      {content}
    </div>
  )
}
