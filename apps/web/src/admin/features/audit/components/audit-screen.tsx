import { adminApi } from '@solpledge/contract/admin'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { AdminPage, ExportButton, Mono, PagedTable, Time } from '@/admin/components/ui.tsx'
import { adminCall } from '@/admin/lib/api-client.ts'
import { adminKeys } from '@/admin/lib/query-keys.ts'
import { useAdminPages } from '@/admin/lib/use-admin-pages.ts'
import { type AuditSearch, auditQuery } from '../utils/audit-search.ts'

const EMPTY: AuditSearch = { action: '', actor: '', target: '', from: '', to: '' }

/**
 * The audit log (docs/admin.md#the-audit-log): every admin action, newest first, searchable by action, actor, target
 * and time.
 */
export function AuditScreen() {
  const { t } = useTranslation('admin')
  const [search, setSearch] = useState(EMPTY)
  const [applied, setApplied] = useState(EMPTY)
  const filter = auditQuery(applied)
  const { query, items } = useAdminPages(adminKeys.audit(filter), (page) =>
    adminCall(adminApi.adminAudit, { ...filter, ...page }),
  )
  const field = (name: keyof AuditSearch, type = 'text') => (
    <label className="admin-field">
      <span>{t(`audit.${name}`)}</span>
      <input
        type={type}
        data-testid={`admin-audit-${name}`}
        value={search[name]}
        onChange={(event) => setSearch({ ...search, [name]: event.target.value })}
      />
    </label>
  )

  return (
    <AdminPage title={t('sections.audit')}>
      <form
        className="admin-form"
        onSubmit={(event) => {
          event.preventDefault()
          setApplied(search)
        }}
      >
        <div className="admin-fields">
          {field('action')}
          {field('actor')}
          {field('target')}
          {field('from', 'datetime-local')}
          {field('to', 'datetime-local')}
        </div>
        <p className="muted-note">{t('audit.hint')}</p>
        <div className="admin-actions">
          <button type="submit" className="admin-button admin-primary" data-testid="admin-audit-search">
            {t('search')}
          </button>
          <button
            type="button"
            className="admin-button"
            onClick={() => {
              setSearch(EMPTY)
              setApplied(EMPTY)
            }}
          >
            {t('clear')}
          </button>
          <ExportButton route={adminApi.adminAuditCsv} body={filter} testId="admin-audit-export" />
        </div>
      </form>
      <PagedTable
        testId="admin-audit"
        query={query}
        count={items.length}
        head={
          <>
            <th>{t('audit.at')}</th>
            <th>{t('audit.actor')}</th>
            <th>{t('audit.action')}</th>
            <th>{t('audit.target')}</th>
            <th>{t('audit.details')}</th>
          </>
        }
      >
        {items.map((entry) => (
          <tr key={entry.id} data-testid="admin-audit-row" data-action={entry.action}>
            <td>
              <Time iso={entry.at} />
            </td>
            <td>
              <Mono text={entry.actor} />
              <div className="muted-note">
                {t(`roles.${entry.role}`)}
                {entry.ip && ` · ${entry.ip}`}
              </div>
            </td>
            <td>{entry.action}</td>
            <td className="admin-wrap">{entry.target ?? '—'}</td>
            <td className="admin-wrap">
              {entry.details !== null && entry.details !== undefined && (
                <pre className="admin-pre">{JSON.stringify(entry.details, null, 2)}</pre>
              )}
            </td>
          </tr>
        ))}
      </PagedTable>
    </AdminPage>
  )
}
