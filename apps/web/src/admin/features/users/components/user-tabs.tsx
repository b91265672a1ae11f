import { adminApi } from '@solpledge/contract/admin'
import {
  type AdminUserDetail,
  LEDGER_TYPES,
  type LedgerType,
  type TradeOrderStatus,
  type TradeSide,
} from '@solpledge/contract/client'
import type { ReactNode } from 'react'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { ReasonDialog } from '@/admin/components/reason-dialog.tsx'
import { CoinField, type PagedQuery, PagedTable, SearchForm, Time } from '@/admin/components/ui.tsx'
import { useAllowed } from '@/admin/lib/api-client.ts'
import { withoutEmpty } from '@/admin/lib/filters.ts'
import { bpsToPercent, formatUnits } from '@/admin/lib/units.ts'
import { useClientConfig } from '@/lib/client-config.ts'
import { USDT_DECIMALS } from '@/lib/format.ts'
import {
  useAdjustments,
  useRevokeSessions,
  useUserFinance,
  useUserLedger,
  useUserNodes,
  useUserOrders,
  useUserSessions,
  useUserStakes,
} from '../api/users.ts'
import { orderAmounts } from '../utils/order-amounts.ts'
import { AdjustmentsTable } from './adjustments-table.tsx'

interface TableProps {
  testId: string
  head: readonly ReactNode[]
  rows: readonly { key: string; cells: readonly ReactNode[] }[]
  query: PagedQuery
}

/** A table of a user's records, with its loading, failure and empty states and 'load more'. */
function RecordTable({ testId, head, rows, query }: TableProps) {
  return (
    <PagedTable
      testId={testId}
      query={query}
      count={rows.length}
      head={head.map((cell, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the columns are fixed
        <th key={index}>{cell}</th>
      ))}
    >
      {rows.map((row) => (
        <tr key={row.key} data-testid={`${testId}-row`}>
          {row.cells.map((cell, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: the columns are fixed
            <td key={index}>{cell}</td>
          ))}
        </tr>
      ))}
    </PagedTable>
  )
}

/** Decimals of an asset: the user's balances list every asset, so the detail already loaded has them. */
const decimalsOf = (user: AdminUserDetail, coin: string) =>
  user.balances.find((balance) => balance.coin === coin)?.decimals ?? 0

/** Ledger entries, filtered by asset and type; amounts signed (negative: left the account). */
export function LedgerTab({ user }: { user: AdminUserDetail }) {
  const { t } = useTranslation('admin')
  const [search, setSearch] = useState({ coin: '', type: '' })
  const [applied, setApplied] = useState(search)
  // The type comes from a list of LEDGER_TYPES: empty (every type) or one of them.
  const { query, items } = useUserLedger(user.address, withoutEmpty(applied) as { coin?: string; type?: LedgerType })
  return (
    <>
      <SearchForm onSearch={() => setApplied(search)}>
        <CoinField
          coins={user.balances.map((balance) => balance.coin)}
          value={search.coin}
          onChange={(coin) => setSearch({ ...search, coin })}
        />
        <label className="admin-field">
          <span>{t('users.ledger.type')}</span>
          <select value={search.type} onChange={(event) => setSearch({ ...search, type: event.target.value })}>
            <option value="">{t('all')}</option>
            {LEDGER_TYPES.map((type) => (
              <option key={type} value={type}>
                {type}
              </option>
            ))}
          </select>
        </label>
      </SearchForm>
      <RecordTable
        testId="admin-user-ledger"
        query={query}
        head={[
          t('users.ledger.time'),
          t('withdrawals.coin'),
          t('users.ledger.type'),
          t('users.ledger.account'),
          t('users.ledger.amount'),
          t('users.ledger.reference'),
        ]}
        rows={items.map((entry) => ({
          key: `${entry.id}:${entry.account}`,
          cells: [
            <Time key="at" iso={entry.created_at} />,
            entry.coin,
            entry.type,
            t(`users.ledger.accounts.${entry.account}`),
            formatUnits(entry.amount, decimalsOf(user, entry.coin)),
            entry.reference ?? '—',
          ],
        }))}
      />
    </>
  )
}

/** A position of the user (a stake, a finance deposit) as a row of its table; `value` only for stakes. */
interface Position {
  id: string
  created_at: string
  amount: string
  decimals: number
  coin: string
  days: number
  start_day: string
  end_day: string
  value?: string
  power: string
  produced: string
  total_output: string
  status: string
}

/**
 * The table of a user's stakes or finance deposits: when, how much, the term, the USDT value when `valued` (stakes),
 * power, what it produced, its state.
 */
function PositionsTab(props: { testId: string; query: PagedQuery; positions: Position[]; valued?: boolean }) {
  const { testId, query, positions, valued = false } = props
  const { t } = useTranslation('admin')
  return (
    <RecordTable
      testId={testId}
      query={query}
      head={[
        t('users.stakes.created'),
        t('users.stakes.amount'),
        t('users.stakes.days'),
        ...(valued ? [t('users.stakes.value')] : []),
        t('users.stakes.power'),
        t('users.stakes.produced'),
        t('users.stakes.status'),
      ]}
      rows={positions.map((position) => ({
        key: position.id,
        cells: [
          <Time key="at" iso={position.created_at} />,
          formatUnits(position.amount, position.decimals, position.coin),
          `${position.days} (${position.start_day} → ${position.end_day})`,
          ...(valued ? [formatUnits(position.value ?? '0', USDT_DECIMALS, 'USDT')] : []),
          formatUnits(position.power, USDT_DECIMALS),
          `${formatUnits(position.produced, position.decimals)} / ${formatUnits(position.total_output, position.decimals)}`,
          position.status,
        ],
      }))}
    />
  )
}

export function StakesTab({ address }: { address: string }) {
  const { t } = useTranslation('admin')
  const { query, items } = useUserStakes(address)
  return (
    <PositionsTab
      testId="admin-user-stakes"
      query={query}
      valued
      positions={items.map((stake) => ({
        ...stake,
        value: stake.usdt_value,
        status: `${t(`users.stakes.statuses.${stake.status}`)} · ${t(`users.stakes.paid.${stake.paid}`)}`,
      }))}
    />
  )
}

export function NodesTab({ user }: { user: AdminUserDetail }) {
  const { t } = useTranslation('admin')
  const nodes = useUserNodes(user.address)
  const { productSymbol } = useClientConfig()
  return (
    <RecordTable
      testId="admin-user-nodes"
      query={nodes}
      head={[
        t('users.nodes.created'),
        t('users.nodes.level'),
        t('users.nodes.price'),
        t('users.nodes.bonus'),
        t('users.nodes.weight'),
        t('users.nodes.dividends'),
      ]}
      rows={(nodes.data ?? []).map((node) => ({
        key: node.id,
        cells: [
          <Time key="at" iso={node.created_at} />,
          node.level,
          formatUnits(node.price_usdt, USDT_DECIMALS, 'USDT'),
          `${bpsToPercent(node.power_bonus_bps)} %`,
          node.dividend_weight,
          formatUnits(node.dividends, decimalsOf(user, productSymbol), productSymbol),
        ],
      }))}
    />
  )
}

export function FinanceTab({ address }: { address: string }) {
  const { t } = useTranslation('admin')
  const { query, items } = useUserFinance(address)
  return (
    <PositionsTab
      testId="admin-user-finance"
      query={query}
      positions={items.map((deposit) => ({
        ...deposit,
        produced: deposit.output,
        status: deposit.redeemed_at ? t('users.finance.redeemed') : t(`users.finance.statuses.${deposit.status}`),
      }))}
    />
  )
}

const ORDER_STATUSES: readonly TradeOrderStatus[] = ['pending', 'completed', 'cancelled']

/** Quick-trade orders of one status (pending until another is chosen), both sides or one. */
export function OrdersTab({ user }: { user: AdminUserDetail }) {
  const { t } = useTranslation('admin')
  const [filter, setFilter] = useState<{ status: TradeOrderStatus; type?: TradeSide }>({ status: 'pending' })
  const { query, items } = useUserOrders(user.address, filter)
  const { productSymbol } = useClientConfig()
  const product = { symbol: productSymbol, decimals: decimalsOf(user, productSymbol) }
  const usdt = { symbol: 'USDT', decimals: USDT_DECIMALS }
  return (
    <>
      <div className="admin-row">
        <label className="admin-field">
          <span>{t('users.orders.status')}</span>
          <select
            data-testid="admin-user-orders-status"
            value={filter.status}
            onChange={(event) => setFilter({ ...filter, status: event.target.value as TradeOrderStatus })}
          >
            {ORDER_STATUSES.map((status) => (
              <option key={status} value={status}>
                {t(`users.orders.statuses.${status}`)}
              </option>
            ))}
          </select>
        </label>
        <label className="admin-field">
          <span>{t('users.orders.type')}</span>
          <select
            value={filter.type ?? ''}
            onChange={(event) =>
              setFilter({ status: filter.status, ...(event.target.value && { type: event.target.value as TradeSide }) })
            }
          >
            <option value="">{t('all')}</option>
            <option value="buy">{t('users.orders.types.buy')}</option>
            <option value="sell">{t('users.orders.types.sell')}</option>
          </select>
        </label>
      </div>
      <RecordTable
        testId="admin-user-orders"
        query={query}
        head={[
          t('users.orders.number'),
          t('users.orders.type'),
          t('users.orders.status'),
          t('users.orders.price'),
          t('users.orders.amount'),
          t('users.orders.filled'),
          t('users.orders.remaining'),
          t('users.orders.earnings'),
          t('users.orders.time'),
        ]}
        rows={items.map((order) => {
          const amounts = orderAmounts(order, product, usdt)
          const side = t(`users.orders.types.${order.type}`)
          return {
            key: order.id,
            cells: [
              order.order_sn,
              order.kind === 'swap' ? `${t('users.orders.swap')} · ${side}` : side,
              t(`users.orders.statuses.${order.status}`),
              amounts.price ?? t('users.orders.market'),
              amounts.amount,
              amounts.sold,
              amounts.remaining,
              amounts.earnings,
              <Time key="at" iso={order.created_at} />,
            ],
          }
        })}
      />
    </>
  )
}

/** Login sessions; an active one can be revoked (its next call is answered -403). */
export function SessionsTab({ address }: { address: string }) {
  const { t } = useTranslation('admin')
  const { query, items } = useUserSessions(address)
  const canRevoke = useAllowed(adminApi.adminUserRevoke)
  const [revoking, setRevoking] = useState<string | null>(null)
  const revoke = useRevokeSessions(() => setRevoking(null))
  return (
    <>
      <RecordTable
        testId="admin-user-sessions"
        query={query}
        head={[t('users.sessions.created'), t('users.sessions.expires'), t('users.sessions.state'), '']}
        rows={items.map((session) => ({
          key: session.id,
          cells: [
            <Time key="created" iso={session.created_at} />,
            <Time key="expires" iso={session.expires_at} />,
            session.active ? (
              t('users.sessions.active')
            ) : session.revoked_at ? (
              <span key="revoked">
                {t('users.sessions.revoked')} <Time iso={session.revoked_at} />
              </span>
            ) : (
              t('users.sessions.expired')
            ),
            session.active && (
              <button
                key="revoke"
                type="button"
                className="admin-button admin-danger"
                data-testid="admin-session-revoke"
                disabled={!canRevoke}
                onClick={() => setRevoking(session.id)}
              >
                {t('users.revoke')}
              </button>
            ),
          ],
        }))}
      />
      <ReasonDialog
        open={revoking !== null}
        title={t('users.revokeOne')}
        confirm={t('users.revoke')}
        pending={revoke.isPending}
        onClose={() => setRevoking(null)}
        onConfirm={(reason) => revoking && revoke.mutate({ address, session_id: revoking, reason })}
      />
    </>
  )
}

export function AdjustmentsTab({ address }: { address: string }) {
  return <AdjustmentsTable pages={useAdjustments({ address })} />
}
