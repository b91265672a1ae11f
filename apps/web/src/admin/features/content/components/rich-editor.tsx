import { type ReactNode, useId, useLayoutEffect, useRef } from 'react'
import { useTranslation } from 'react-i18next'
import { serializeRichText, toAllowedHtml } from '@/lib/rich-text.ts'

interface RichEditorProps {
  label: string
  testId: string
  /** The stored markup (what the app renders). */
  value: string
  disabled: boolean
  /** The markup as edited, reduced to the app's allow-list. */
  onChange: (html: string) => void
}

/** What the toolbar does: a browser editing command and its value. */
type Command = readonly [command: string, value?: string]

/**
 * A WYSIWYG editor for notice and campaign bodies: an editable area with a toolbar (heading, bold, italic, underline,
 * lists, link, plain paragraph). What it emits is the area's markup read through the app's allow-list
 * (lib/rich-text.ts `toAllowedHtml`): only the tags and attributes the app shows, whatever the browser or a paste put
 * in. On leaving the area it shows exactly that markup, so the operator sees what users will see.
 */
export function RichEditor({ label, testId, value, disabled, onChange }: RichEditorProps) {
  const { t } = useTranslation('admin')
  const area = useRef<HTMLDivElement>(null)
  /**
   * What this editor emitted and the parent has not rendered back yet, oldest first: a value among them is the editor's
   * own (typing may run ahead of the renders), any other came from outside (another language, an upload).
   */
  const emitted = useRef<string[]>([])
  const labelId = useId()

  useLayoutEffect(() => {
    const element = area.current
    if (!element) return
    const own = emitted.current.indexOf(value)
    if (own >= 0) {
      emitted.current = emitted.current.slice(own)
      return
    }
    // Only allow-listed markup is ever put in the page: no handler or script of stored content can run here.
    element.innerHTML = toAllowedHtml(value)
    emitted.current = [value]
  }, [value])

  /** The area's markup through the allow-list, given to the parent when it changed. */
  const emit = () => {
    const element = area.current
    if (!element) return ''
    const html = toAllowedHtml(element.innerHTML)
    if (html !== emitted.current.at(-1)) {
      emitted.current.push(html)
      onChange(html)
    }
    return html
  }

  const run = ([command, argument]: Command) => {
    area.current?.focus()
    document.execCommand(command, false, argument)
    emit()
  }

  const link = () => {
    const href = window.prompt(t('content.editor.linkPrompt'), 'https://')
    if (href) run(['createLink', href.trim()])
  }

  const tools: { id: string; label: string; icon: ReactNode; command: Command | 'link' }[] = [
    { id: 'heading', label: t('content.editor.heading'), icon: 'H', command: ['formatBlock', 'h2'] },
    { id: 'paragraph', label: t('content.editor.paragraph'), icon: '¶', command: ['formatBlock', 'p'] },
    { id: 'bold', label: t('content.editor.bold'), icon: <strong>B</strong>, command: ['bold'] },
    { id: 'italic', label: t('content.editor.italic'), icon: <em>I</em>, command: ['italic'] },
    { id: 'underline', label: t('content.editor.underline'), icon: <u>U</u>, command: ['underline'] },
    { id: 'bullets', label: t('content.editor.bullets'), icon: '•', command: ['insertUnorderedList'] },
    { id: 'numbers', label: t('content.editor.numbers'), icon: '№', command: ['insertOrderedList'] },
    { id: 'link', label: t('content.editor.link'), icon: '🔗', command: 'link' },
  ]

  return (
    <div className="admin-field">
      <span id={labelId}>{label}</span>
      <div className="admin-editor">
        <div className="admin-editor-tools" role="toolbar" aria-label={t('content.editor.toolbar')}>
          {tools.map((tool) => (
            <button
              key={tool.id}
              type="button"
              className="admin-editor-tool"
              data-testid={`${testId}-tool-${tool.id}`}
              aria-label={tool.label}
              title={tool.label}
              disabled={disabled}
              // Keeps the selection in the area: the command applies to it.
              onMouseDown={(event) => event.preventDefault()}
              onClick={() => (tool.command === 'link' ? link() : run(tool.command))}
            >
              {tool.icon}
            </button>
          ))}
        </div>
        {/* biome-ignore lint/a11y/useSemanticElements: a rich-text area is an editable element named as a textbox */}
        <div
          ref={area}
          className="admin-editor-area"
          data-testid={testId}
          role="textbox"
          aria-multiline="true"
          aria-labelledby={labelId}
          tabIndex={disabled ? -1 : 0}
          contentEditable={!disabled}
          suppressContentEditableWarning
          onFocus={() => {
            // Enter starts a paragraph, not a div.
            document.execCommand('defaultParagraphSeparator', false, 'p')
            if (area.current && area.current.innerHTML === '') area.current.innerHTML = '<p><br></p>'
          }}
          onInput={emit}
          onBlur={() => {
            // Shows what is stored: the allow-listed markup (e.g. <b> written as <strong>, styles gone).
            const html = emit()
            if (area.current) area.current.innerHTML = html
          }}
          onPaste={(event) => {
            // A paste keeps its structure (paragraphs, lists, emphasis, links), never its styles or scripts.
            event.preventDefault()
            const html = event.clipboardData.getData('text/html')
            const text = event.clipboardData.getData('text/plain')
            const clean = html ? toAllowedHtml(html) : plainToHtml(text)
            document.execCommand('insertHTML', false, clean)
            emit()
          }}
        />
      </div>
    </div>
  )
}

/** Plain text as paragraphs (blank lines) and line breaks, escaped. */
function plainToHtml(text: string): string {
  return text
    .split(/\r?\n\s*\r?\n/)
    .map(
      (block) =>
        `<p>${block
          .split(/\r?\n/)
          .map((line) => serializeRichText([line]))
          .join('<br>')}</p>`,
    )
    .join('')
}
