import type { BodyOf, ClientRoute } from '@solpledge/contract/client'
import { createContext, type ReactNode, useContext, useEffect, useId, useRef } from 'react'
import { useTranslation } from 'react-i18next'
import { adminDownload } from '@/admin/lib/api-client.ts'
import { LoadMore } from '@/components/load-more.tsx'
import { EmptyState } from '@/components/page.tsx'
import { ApiError } from '@/lib/api-client.ts'
import { formatDateTime } from '@/lib/format.ts'
import { shorten } from '@/lib/shorten.ts'
import { useExport } from '@/lib/use-export.ts'

/** The id of the heading of the area or block around: what names the scrolling tables in it (TableWrap). */
const HeadingId = createContext<string | undefined>(undefined)

/** One area of the console: its title, actions at the end of the title row, and its content. */
export function AdminPage({ title, actions, children }: { title: string; actions?: ReactNode; children: ReactNode }) {
  const id = useId()
  return (
    <HeadingId value={id}>
      <div className="section-head">
        <h1 id={id} className="admin-title" data-testid="admin-title">
          {title}
        </h1>
        {actions}
      </div>
      {children}
    </HeadingId>
  )
}

/** A titled block inside an area. */
export function Panel({ title, testId, actions, children }: PanelProps) {
  const id = useId()
  return (
    <HeadingId value={id}>
      <section className="card admin-section" data-testid={testId} aria-labelledby={id}>
        <div className="section-head">
          <h2 id={id}>{title}</h2>
          {actions}
        </div>
        {children}
      </section>
    </HeadingId>
  )
}

/**
 * The console's tables: on a wide screen a table that scrolls sideways when it must (focusable, so that it scrolls from
 * the keyboard too, and named by the heading of its area or block); at a phone's width (admin.css) each row is a card
 * whose cells are labelled by their column's header (`data-label`, set here from the header row), with the actions
 * first.
 */
export function TableWrap({ children }: { children: ReactNode }) {
  const ref = useRef<HTMLElement>(null)
  useEffect(() => {
    const wrap = ref.current
    if (!wrap) return
    labelCells(wrap)
    // Rows come and go (pages, live updates) and headers change with the language: label them again each time.
    const observer = new MutationObserver(() => labelCells(wrap))
    observer.observe(wrap, { childList: true, subtree: true, characterData: true })
    return () => observer.disconnect()
  }, [])
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take the focus to scroll by keyboard
    <section ref={ref} className="admin-table-wrap" tabIndex={0} aria-labelledby={useContext(HeadingId)}>
      {children}
    </section>
  )
}

/** Gives every body cell of the tables in `wrap` its column's header text as `data-label` (shown on a phone). */
function labelCells(wrap: HTMLElement) {
  for (const table of wrap.querySelectorAll('table')) {
    const head = table.tHead?.rows[0]
    const labels = head ? [...head.cells].flatMap((cell) => Array(cell.colSpan).fill(cell.textContent ?? '')) : []
    for (const body of table.tBodies)
      for (const row of body.rows) {
        let column = 0
        for (const cell of row.cells) {
          const label = labels[column] ?? ''
          // Written only when it changes (the observer above does not listen to attributes anyway).
          if (cell.dataset.label !== label) cell.dataset.label = label
          column += cell.colSpan
        }
      }
  }
}

interface PanelProps {
  title: string
  testId?: string
  actions?: ReactNode
  children: ReactNode
}

/** A timestamp in the interface language, or '—'. */
export function Time({ iso }: { iso: string | null | undefined }) {
  const { i18n } = useTranslation()
  if (!iso) return <>—</>
  return <time dateTime={iso}>{formatDateTime(iso, i18n.resolvedLanguage)}</time>
}

interface ListQuery {
  isError: boolean
  error: unknown
  refetch: () => unknown
}

/**
 * What a list shows before its data is there: loading, failed (the server's refusal, e.g. of a malformed address,
 * or a generic failure, with retry), or nothing found.
 */
export function ListState({ query, empty }: { query: ListQuery; empty: boolean }) {
  const { t } = useTranslation('admin')
  if (query.isError)
    return (
      <div className="admin-row">
        <p className="admin-error" data-testid="admin-list-error">
          {query.error instanceof ApiError ? query.error.message : t('loadFailed')}
        </p>
        <button type="button" className="admin-button" onClick={() => query.refetch()}>
          {t('retry')}
        </button>
      </div>
    )
  if (empty) return <EmptyState text={t('empty')} />
  return <p className="muted-note">{t('loading')}</p>
}

export interface PagedQuery extends ListQuery {
  isSuccess: boolean
  /** Absent on a list that is not paged. */
  hasNextPage?: boolean
  isFetchingNextPage?: boolean
  fetchNextPage?: () => unknown
}

interface PagedListProps {
  query: PagedQuery
  /** How many items are loaded: none shows the list's state instead of `children`. */
  count: number
  moreTestId: string
  children: ReactNode
}

/** A paged list: its state (loading, failed, empty) until it has items, then the items and 'load more'. */
export function PagedList({ query, count, moreTestId, children }: PagedListProps) {
  if (count === 0) return <ListState query={query} empty={query.isSuccess} />
  return (
    <>
      {children}
      {query.hasNextPage && (
        <LoadMore
          testId={moreTestId}
          loading={query.isFetchingNextPage ?? false}
          onLoad={() => query.fetchNextPage?.()}
        />
      )}
    </>
  )
}

interface PagedTableProps extends Omit<PagedListProps, 'moreTestId'> {
  /** The table's test id; its 'load more' is `${testId}-more`. */
  testId: string
  /** The header cells. */
  head: ReactNode
  /** The rows. */
  children: ReactNode
}

/** A paged list as a console table. */
export function PagedTable({ testId, head, children, ...list }: PagedTableProps) {
  return (
    <PagedList {...list} moreTestId={`${testId}-more`}>
      <TableWrap>
        <table className="admin-table" data-testid={testId}>
          <thead>
            <tr>{head}</tr>
          </thead>
          <tbody>{children}</tbody>
        </table>
      </TableWrap>
    </PagedList>
  )
}

/**
 * An address or a signature in a monospace font: shortened to its start and end (the whole one on hover), as table
 * cells need; `full` where there is room for all of it.
 */
export function Mono({ text, full = false, testId }: { text: string; full?: boolean; testId?: string }) {
  return (
    <span className="admin-mono" title={text} data-testid={testId}>
      {full ? text : shorten(text)}
    </span>
  )
}

/** A row of search fields and 'search': `onSearch` when submitted. */
export function SearchForm({
  onSearch,
  submitTestId,
  children,
}: {
  onSearch: () => void
  submitTestId?: string
  children: ReactNode
}) {
  const { t } = useTranslation('admin')
  return (
    <form
      className="admin-row"
      onSubmit={(event) => {
        event.preventDefault()
        onSearch()
      }}
    >
      {children}
      <button type="submit" className="admin-button" data-testid={submitTestId}>
        {t('search')}
      </button>
    </form>
  )
}

/** A choice of one asset or all of them (''). */
export function CoinField({
  coins,
  value,
  onChange,
}: {
  coins: readonly string[]
  value: string
  onChange: (coin: string) => void
}) {
  const { t } = useTranslation('admin')
  return (
    <label className="admin-field">
      <span>{t('withdrawals.coin')}</span>
      <select value={value} onChange={(event) => onChange(event.target.value)}>
        <option value="">{t('all')}</option>
        {coins.map((coin) => (
          <option key={coin}>{coin}</option>
        ))}
      </select>
    </label>
  )
}

/**
 * Downloads what a list shows, all of its pages, as a CSV file: `route` is the list's download route (`csv` in the
 * contract), `body` the list's filters as applied.
 */
export function ExportButton<R extends ClientRoute>({
  route,
  body,
  testId,
}: {
  route: R
  body: BodyOf<R>
  testId: string
}) {
  const { t } = useTranslation('admin')
  const exporting = useExport(() => adminDownload(route, body))
  return (
    <button
      type="button"
      className="admin-button"
      data-testid={testId}
      disabled={exporting.busy}
      onClick={exporting.run}
    >
      {t('exportCsv')}
    </button>
  )
}
