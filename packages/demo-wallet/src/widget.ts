import type { PublicKey } from '@solana/web3.js'
import type { DemoWallet } from './wallet.ts'

// The floating badge injected by installDemoWallet. Vanilla DOM inside an open shadow root so the app's CSS does not
// leak in (Playwright locators such as getByTestId pierce open shadow roots). English only: it is a developer tool.

const STYLE = `
:host { all: initial; }
.root { position: relative; font: 12px/1.4 system-ui, -apple-system, 'Segoe UI', sans-serif; color: #e8e8f0; }
button { font: inherit; color: inherit; cursor: pointer; border: 0; background: none; text-align: left; }
.badge {
  display: flex; align-items: center; gap: 6px; padding: 4px 10px; border-radius: 999px;
  background: rgba(24, 22, 38, 0.92); border: 1px solid rgba(171, 159, 242, 0.5); box-shadow: 0 2px 8px rgba(0,0,0,.3);
}
.badge:hover { border-color: #ab9ff2; }
.dot { width: 7px; height: 7px; border-radius: 50%; background: #777; }
.dot.on { background: #3ecf8e; }
.label { font-weight: 600; }
.addr { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; opacity: 0.85; }
.menu {
  position: absolute; right: 0; top: calc(100% + 6px); min-width: 220px; padding: 6px; border-radius: 10px;
  background: rgba(24, 22, 38, 0.97); border: 1px solid rgba(171, 159, 242, 0.4); box-shadow: 0 6px 20px rgba(0,0,0,.4);
}
.menu[hidden] { display: none; }
.heading { padding: 4px 8px; font-size: 11px; text-transform: uppercase; letter-spacing: .05em; opacity: .6; }
.item { display: flex; width: 100%; gap: 8px; align-items: center; padding: 5px 8px; border-radius: 6px; }
.item:hover, .item:focus-visible { background: rgba(171, 159, 242, 0.18); outline: none; }
.item .check { width: 12px; color: #ab9ff2; }
.sep { height: 1px; margin: 4px 0; background: rgba(255,255,255,.1); }
.note { padding: 4px 8px 2px; font-size: 11px; opacity: .55; }
.status { padding: 2px 8px; font-size: 11px; color: #3ecf8e; min-height: 15px; }
`

export function shortAddress(publicKey: PublicKey): string {
  const base58 = publicKey.toBase58()
  return `${base58.slice(0, 4)}…${base58.slice(-4)}`
}

/** Mounts the widget into `doc.body`; returns a function that removes it again. */
export function mountDemoWalletWidget(wallet: DemoWallet, doc: Document = document): () => void {
  const host = doc.createElement('div')
  host.setAttribute('data-testid', 'demo-wallet-widget')
  host.style.cssText = 'position:fixed;top:8px;right:8px;z-index:1000;'
  const shadow = host.attachShadow({ mode: 'open' })

  const style = doc.createElement('style')
  style.textContent = STYLE
  const root = doc.createElement('div')
  root.className = 'root'
  shadow.append(style, root)

  const badge = button(doc, 'badge', 'demo-wallet-toggle')
  badge.setAttribute('aria-haspopup', 'menu')
  badge.setAttribute('aria-expanded', 'false')
  const dot = doc.createElement('span')
  const label = doc.createElement('span')
  label.className = 'label'
  label.textContent = 'Demo wallet'
  const addr = doc.createElement('span')
  addr.className = 'addr'
  addr.setAttribute('data-testid', 'demo-wallet-address')
  badge.append(dot, label, addr)

  const menu = doc.createElement('div')
  menu.className = 'menu'
  menu.setAttribute('role', 'menu')
  menu.hidden = true
  root.append(badge, menu)

  let status = ''
  let statusTimer: ReturnType<typeof setTimeout> | undefined
  const flash = (text: string) => {
    status = text
    render()
    clearTimeout(statusTimer)
    statusTimer = setTimeout(() => {
      status = ''
      render()
    }, 1500)
  }

  const setOpen = (open: boolean) => {
    menu.hidden = !open
    badge.setAttribute('aria-expanded', String(open))
    if (open) render()
  }

  function render(): void {
    const active = wallet.activePublicKey
    dot.className = wallet.isConnected ? 'dot on' : 'dot'
    addr.textContent = shortAddress(active)
    badge.title = `${active.toBase58()} (${wallet.isConnected ? 'connected' : 'not connected'})`
    if (menu.hidden) return

    const heading = doc.createElement('div')
    heading.className = 'heading'
    heading.textContent = 'Accounts'
    const items: Node[] = [heading]
    wallet.accounts().forEach((publicKey, index) => {
      const item = button(doc, 'item', `demo-wallet-account-${index}`)
      item.setAttribute('role', 'menuitemradio')
      item.setAttribute('aria-checked', String(index === wallet.activeIndex))
      item.title = publicKey.toBase58()
      const check = doc.createElement('span')
      check.className = 'check'
      check.textContent = index === wallet.activeIndex ? '✓' : ''
      const text = doc.createElement('span')
      text.className = 'addr'
      text.textContent = `#${index + 1}  ${shortAddress(publicKey)}`
      item.append(check, text)
      item.addEventListener('click', () => {
        wallet.switchAccount(index)
        setOpen(false)
      })
      items.push(item)
    })
    items.push(
      menuItem(doc, 'demo-wallet-add', '+ Add account', () => {
        wallet.switchAccount(wallet.addAccount())
      }),
      separator(doc),
      menuItem(doc, 'demo-wallet-copy', 'Copy address', async () => {
        flash((await copyText(doc, active.toBase58())) ? 'Address copied' : 'Copy failed')
      }),
      menuItem(doc, 'demo-wallet-export', 'Copy secret key (base58)', async () => {
        flash((await copyText(doc, wallet.exportActiveSecretKey())) ? 'Secret key copied' : 'Copy failed')
      }),
    )
    const statusLine = doc.createElement('div')
    statusLine.className = 'status'
    statusLine.setAttribute('role', 'status')
    statusLine.textContent = status
    const note = doc.createElement('div')
    note.className = 'note'
    note.textContent = 'Local test keys. Approves every request.'
    items.push(statusLine, note)
    menu.replaceChildren(...items)
  }

  badge.addEventListener('click', () => setOpen(menu.hidden))
  const onDocumentClick = (event: Event) => {
    if (!menu.hidden && !event.composedPath().includes(host)) setOpen(false)
  }
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape' && !menu.hidden) setOpen(false)
  }
  doc.addEventListener('click', onDocumentClick, true)
  doc.addEventListener('keydown', onKeyDown)

  const events = ['connect', 'disconnect', 'accountChanged', 'change'] as const
  for (const event of events) wallet.on(event, render)
  render()
  doc.body.append(host)

  return () => {
    for (const event of events) wallet.off(event, render)
    doc.removeEventListener('click', onDocumentClick, true)
    doc.removeEventListener('keydown', onKeyDown)
    clearTimeout(statusTimer)
    host.remove()
  }
}

function button(doc: Document, className: string, testId: string): HTMLButtonElement {
  const el = doc.createElement('button')
  el.type = 'button'
  el.className = className
  el.setAttribute('data-testid', testId)
  return el
}

function menuItem(doc: Document, testId: string, text: string, onClick: () => void): HTMLButtonElement {
  const el = button(doc, 'item', testId)
  el.setAttribute('role', 'menuitem')
  const check = doc.createElement('span')
  check.className = 'check'
  const label = doc.createElement('span')
  label.textContent = text
  el.append(check, label)
  el.addEventListener('click', onClick)
  return el
}

function separator(doc: Document): HTMLDivElement {
  const el = doc.createElement('div')
  el.className = 'sep'
  return el
}

async function copyText(doc: Document, text: string): Promise<boolean> {
  try {
    const clipboard = doc.defaultView?.navigator.clipboard
    if (!clipboard) throw new Error('no clipboard')
    await clipboard.writeText(text)
    return true
  } catch {
    // Clipboard API unavailable (insecure origin or denied permission): fall back to a hidden textarea.
    const area = doc.createElement('textarea')
    area.value = text
    area.style.cssText = 'position:fixed;top:0;left:0;opacity:0;'
    doc.body.append(area)
    area.select()
    const ok = doc.execCommand('copy')
    area.remove()
    return ok
  }
}
