import { ADMIN_ROLES } from '@solpledge/contract'
import { adminApi } from '@solpledge/contract/admin'
import type { AdminRole } from '@solpledge/contract/client'
import { type FormEvent, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { ListState, Mono, Panel, TableWrap, Time } from '@/admin/components/ui.tsx'
import { useAllowed } from '@/admin/lib/api-client.ts'
import { useAdminSession } from '@/admin/lib/session.ts'
import { useOperators, useRemoveOperator, useSaveOperator } from '../api/config.ts'

/**
 * The operator allow-list with roles. Operators from the server's configuration (ADMIN_ADDRESSES) are set at every
 * start and cannot be changed here; nobody changes or removes themselves.
 */
export function Operators() {
  const { t } = useTranslation('admin')
  const session = useAdminSession()
  const operators = useOperators()
  const canEdit = useAllowed(adminApi.adminAdminSave)
  const remove = useRemoveOperator()
  const [address, setAddress] = useState('')
  const [role, setRole] = useState<AdminRole>('viewer')
  const save = useSaveOperator(() => setAddress(''))
  const list = operators.data ?? []

  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (address.trim()) save.mutate({ address: address.trim(), role })
  }

  return (
    <Panel title={t('operators.title')} testId="admin-operators">
      {list.length === 0 ? (
        <ListState query={operators} empty={operators.isSuccess} />
      ) : (
        <TableWrap>
          <table className="admin-table">
            <thead>
              <tr>
                <th>{t('users.address')}</th>
                <th>{t('operators.role')}</th>
                <th>{t('operators.source')}</th>
                <th>{t('operators.addedBy')}</th>
                <th>{t('operators.updated')}</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {list.map((operator) => {
                const fixed = operator.source === 'config' || operator.address === session?.address
                return (
                  <tr key={operator.address} data-testid="admin-operator-row">
                    <td>
                      <Mono text={operator.address} />
                    </td>
                    <td>{t(`roles.${operator.role}`)}</td>
                    <td>{t(`operators.sources.${operator.source}`)}</td>
                    <td>
                      <Mono text={operator.added_by} />
                    </td>
                    <td>
                      <Time iso={operator.updated_at} />
                    </td>
                    <td>
                      <button
                        type="button"
                        className="admin-button admin-danger"
                        disabled={!canEdit || fixed || remove.isPending}
                        onClick={() => remove.mutate({ address: operator.address })}
                      >
                        {t('operators.remove')}
                      </button>
                    </td>
                  </tr>
                )
              })}
            </tbody>
          </table>
        </TableWrap>
      )}
      {canEdit && (
        <form className="admin-row" onSubmit={submit}>
          <label className="admin-field">
            <span>{t('users.address')}</span>
            <input
              data-testid="admin-operator-address"
              value={address}
              onChange={(event) => setAddress(event.target.value)}
            />
          </label>
          <label className="admin-field">
            <span>{t('operators.role')}</span>
            <select
              data-testid="admin-operator-role"
              value={role}
              onChange={(event) => setRole(event.target.value as AdminRole)}
            >
              {ADMIN_ROLES.map((value) => (
                <option key={value} value={value}>
                  {t(`roles.${value}`)}
                </option>
              ))}
            </select>
          </label>
          <button
            type="submit"
            className="admin-button admin-primary"
            data-testid="admin-operator-save"
            disabled={save.isPending || !address.trim()}
          >
            {t('operators.save')}
          </button>
        </form>
      )}
      <p className="muted-note">{t('operators.note')}</p>
    </Panel>
  )
}
