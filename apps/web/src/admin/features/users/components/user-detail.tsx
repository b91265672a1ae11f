import { adminApi } from '@solpledge/contract/admin'
import type { AdminUserDetail } from '@solpledge/contract/client'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { ReasonDialog } from '@/admin/components/reason-dialog.tsx'
import { ListState, Mono, Panel, Time } from '@/admin/components/ui.tsx'
import { useAllowed } from '@/admin/lib/api-client.ts'
import { formatUnits } from '@/admin/lib/units.ts'
import { Facts } from '@/components/facts.tsx'
import { Tabs } from '@/components/tabs.tsx'
import { useAdminUser, useRevokeSessions } from '../api/users.ts'
import { AdjustDialog } from './adjust-dialog.tsx'
import { AdjustmentsTab, FinanceTab, LedgerTab, NodesTab, OrdersTab, SessionsTab, StakesTab } from './user-tabs.tsx'

const TABS = ['ledger', 'stakes', 'nodes', 'finance', 'orders', 'sessions', 'adjustments'] as const
type Tab = (typeof TABS)[number]

/** Everything about one user: referral parent and team, balances, and their records by tab; revoke and adjust. */
export function UserDetail({ address }: { address: string }) {
  const user = useAdminUser(address)

  if (!user.data)
    return (
      <Panel title={address} testId="admin-user">
        <ListState query={user} empty={false} />
      </Panel>
    )
  return <LoadedUser user={user.data} />
}

function LoadedUser({ user }: { user: AdminUserDetail }) {
  const { t } = useTranslation('admin')
  const [tab, setTab] = useState<Tab>('ledger')
  const [adjusting, setAdjusting] = useState(false)
  const [revoking, setRevoking] = useState(false)
  const canAdjust = useAllowed(adminApi.adminAdjust)
  const canRevoke = useAllowed(adminApi.adminUserRevoke)
  const revoke = useRevokeSessions(() => setRevoking(false))
  const usdt = (units: string) => formatUnits(units, user.team.usdt_decimals)

  return (
    <>
      <Panel
        title={t('users.user', { id: user.id })}
        testId="admin-user"
        actions={
          <div className="admin-actions">
            <button
              type="button"
              className="admin-button"
              data-testid="admin-user-adjust"
              disabled={!canAdjust}
              onClick={() => setAdjusting(true)}
            >
              {t('adjustments.adjust')}
            </button>
            <button
              type="button"
              className="admin-button admin-danger"
              data-testid="admin-user-revoke-all"
              disabled={!canRevoke || user.active_sessions === 0}
              onClick={() => setRevoking(true)}
            >
              {t('users.revokeAll')}
            </button>
          </div>
        }
      >
        <Facts
          facts={[
            {
              id: 'address',
              label: t('users.address'),
              value: <Mono text={user.address} full testId="admin-user-address" />,
            },
            {
              id: 'parent',
              label: t('users.parent'),
              value: user.parent_address ? <Mono text={user.parent_address} full /> : '—',
            },
            { id: 'depth', label: t('users.depth'), value: user.depth },
            { id: 'joined', label: t('users.joined'), value: <Time iso={user.created_at} /> },
            {
              id: 'sessions',
              label: t('users.activeSessions'),
              value: user.active_sessions,
              testId: 'admin-user-active-sessions',
            },
          ]}
        />
      </Panel>
      <div className="admin-grid">
        <Panel title={t('users.team')}>
          <Facts
            facts={[
              { id: 'direct', label: t('users.directCount'), value: user.team.direct_count },
              { id: 'team', label: t('users.teamCount'), value: user.team.team_count },
              { id: 'performance', label: t('users.performance'), value: usdt(user.team.performance) },
              { id: 'teamPerformance', label: t('users.teamPerformance'), value: usdt(user.team.team_performance) },
              { id: 'power', label: t('users.personalPower'), value: usdt(user.team.personal_power) },
              { id: 'teamPower', label: t('users.teamPower'), value: usdt(user.team.team_power) },
            ]}
          />
        </Panel>
        <Panel title={t('users.balances')}>
          <Facts
            facts={user.balances.map((balance) => ({
              id: balance.coin,
              label: balance.coin,
              value: t('users.balance', {
                available: formatUnits(balance.available, balance.decimals),
                locked: formatUnits(balance.locked, balance.decimals),
              }),
              testId: `admin-user-balance-${balance.coin}`,
            }))}
          />
        </Panel>
      </div>
      <Tabs<Tab>
        label={t('users.records')}
        testId="admin-user-tab"
        value={tab}
        onChange={setTab}
        options={TABS.map((value) => ({ value, label: t(`users.tabs.${value}`) }))}
      />
      {tab === 'ledger' && <LedgerTab user={user} />}
      {tab === 'stakes' && <StakesTab address={user.address} />}
      {tab === 'nodes' && <NodesTab user={user} />}
      {tab === 'finance' && <FinanceTab address={user.address} />}
      {tab === 'orders' && <OrdersTab user={user} />}
      {tab === 'sessions' && <SessionsTab address={user.address} />}
      {tab === 'adjustments' && <AdjustmentsTab address={user.address} />}
      <AdjustDialog open={adjusting} user={user} onClose={() => setAdjusting(false)} />
      <ReasonDialog
        open={revoking}
        title={t('users.revokeAll')}
        confirm={t('users.revoke')}
        pending={revoke.isPending}
        onClose={() => setRevoking(false)}
        onConfirm={(reason) => revoke.mutate({ address: user.address, reason })}
      >
        <p className="muted-note">{t('users.revokeAllText', { count: user.active_sessions })}</p>
      </ReasonDialog>
    </>
  )
}
