import { adminApi } from '@solpledge/contract/admin'
import { useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useSearchParams } from 'react-router'
import { AdminPage, ExportButton, Mono, PagedTable, Panel, SearchForm, Time } from '@/admin/components/ui.tsx'
import { useAdjustments, useUserSearch } from '../api/users.ts'
import { AdjustmentsTable } from './adjustments-table.tsx'
import { UserDetail } from './user-detail.tsx'

/**
 * Users (docs/admin.md#users): look a user up by address (or id) and see everything about them; with no user chosen,
 * the adjustments waiting for a second admin.
 */
export function UsersScreen() {
  const { t } = useTranslation('admin')
  const [params, setParams] = useSearchParams()
  const address = params.get('address') ?? ''
  const [text, setText] = useState(address)
  const [q, setQ] = useState<string | null>(null)
  const hintId = useId()
  const open = (next: string) => {
    setText(next)
    setQ(null)
    setParams(next ? { address: next } : {})
  }

  return (
    <AdminPage title={t('sections.users')}>
      <SearchForm onSearch={() => setQ(text.trim())} submitTestId="admin-user-search-submit">
        <label className="admin-field">
          <span>{t('users.search')}</span>
          <input
            data-testid="admin-user-search"
            value={text}
            onChange={(event) => setText(event.target.value)}
            aria-describedby={hintId}
          />
          <span id={hintId} className="admin-hint" aria-hidden="true">
            {t('users.searchHint')}
          </span>
        </label>
      </SearchForm>
      {q !== null && <SearchResults q={q} onOpen={open} />}
      {address ? <UserDetail key={address} address={address} /> : <PendingAdjustments />}
    </AdminPage>
  )
}

function SearchResults({ q, onOpen }: { q: string; onOpen: (address: string) => void }) {
  const { t } = useTranslation('admin')
  const { query, items } = useUserSearch(q)
  return (
    <Panel
      title={t('users.results')}
      testId="admin-user-results"
      actions={<ExportButton route={adminApi.adminUsersCsv} body={q ? { q } : {}} testId="admin-users-export" />}
    >
      <PagedTable
        testId="admin-users"
        query={query}
        count={items.length}
        head={
          <>
            <th>{t('users.id')}</th>
            <th>{t('users.address')}</th>
            <th>{t('users.parent')}</th>
            <th>{t('users.joined')}</th>
          </>
        }
      >
        {items.map((user) => (
          <tr key={user.id} data-testid="admin-user-result">
            <td>{user.id}</td>
            <td>
              <button type="button" className="admin-button" onClick={() => onOpen(user.address)}>
                <Mono text={user.address} />
              </button>
            </td>
            <td>{user.parent_address ? <Mono text={user.parent_address} /> : '—'}</td>
            <td>
              <Time iso={user.created_at} />
            </td>
          </tr>
        ))}
      </PagedTable>
    </Panel>
  )
}

function PendingAdjustments() {
  const { t } = useTranslation('admin')
  const pages = useAdjustments({ status: 'pending' })
  return (
    <Panel title={t('adjustments.pendingTitle')} testId="admin-pending-adjustments">
      <p className="muted-note">{t('adjustments.pendingText')}</p>
      <AdjustmentsTable pages={pages} showUser />
    </Panel>
  )
}
