import type { AdminUserDetail } from '@solpledge/contract/client'
import { type FormEvent, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { REASON_MAX } from '@/admin/lib/reason.ts'
import { formatUnits } from '@/admin/lib/units.ts'
import { AmountInput } from '@/components/amount-input.tsx'
import { Modal } from '@/components/modal.tsx'
import { Tabs } from '@/components/tabs.tsx'
import { useAdjust } from '../api/users.ts'
import { checkAdjustment, type Direction } from '../utils/adjustment.ts'

interface AdjustDialogProps {
  open: boolean
  user: AdminUserDetail
  onClose: () => void
}

/**
 * A manual balance adjustment (docs/admin.md#balance-adjustments): credit or debit a user's available balance with a
 * mandatory reason; it is a ledger transfer against the system account. Once two admins exist, every adjustment waits
 * for a second admin.
 */
export function AdjustDialog({ open, user, onClose }: AdjustDialogProps) {
  const { t } = useTranslation('admin')
  const [coin, setCoin] = useState(user.balances[0]?.coin ?? '')
  const [direction, setDirection] = useState<Direction>('credit')
  const [amount, setAmount] = useState('')
  const [reason, setReason] = useState('')
  const [error, setError] = useState<string | null>(null)
  const close = () => {
    setAmount('')
    setReason('')
    setError(null)
    onClose()
  }
  const adjust = useAdjust(close)
  const balance = user.balances.find((item) => item.coin === coin)

  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (!balance || adjust.isPending) return
    const check = checkAdjustment({ direction, amount, reason, decimals: balance.decimals })
    if (!check.ok) return setError(t(`adjustments.errors.${check.error}`, check.params))
    adjust.mutate({ address: user.address, coin, amount: check.amount, reason: check.reason })
  }

  return (
    <Modal
      open={open}
      title={t('adjustments.adjust')}
      onClose={adjust.isPending ? undefined : close}
      testId="admin-adjust-dialog"
    >
      <form className="admin-form" onSubmit={submit} noValidate>
        <label className="admin-field">
          <span>{t('withdrawals.coin')}</span>
          <select data-testid="admin-adjust-coin" value={coin} onChange={(event) => setCoin(event.target.value)}>
            {user.balances.map((item) => (
              <option key={item.coin}>{item.coin}</option>
            ))}
          </select>
        </label>
        {balance && (
          <p className="muted-note">
            {t('users.balance', {
              available: formatUnits(balance.available, balance.decimals, coin),
              locked: formatUnits(balance.locked, balance.decimals, coin),
            })}
          </p>
        )}
        <Tabs<Direction>
          label={t('adjustments.direction')}
          testId="admin-adjust-direction"
          value={direction}
          onChange={setDirection}
          options={[
            { value: 'credit', label: t('adjustments.credit') },
            { value: 'debit', label: t('adjustments.debit') },
          ]}
        />
        <label className="admin-field" htmlFor="admin-adjust-amount">
          <span>{t('adjustments.amount')}</span>
        </label>
        <AmountInput
          id="admin-adjust-amount"
          testId="admin-adjust-amount"
          value={amount}
          onChange={setAmount}
          suffix={coin}
        />
        <p className="muted-note">{t('adjustments.everyTwo')}</p>
        <label className="admin-field">
          <span>{t('reason.label')}</span>
          <textarea
            data-testid="admin-adjust-reason"
            value={reason}
            maxLength={REASON_MAX}
            onChange={(event) => setReason(event.target.value)}
          />
        </label>
        {error && (
          <p className="admin-error" data-testid="admin-adjust-error">
            {error}
          </p>
        )}
        <button
          type="submit"
          className="admin-button admin-primary"
          data-testid="admin-adjust-submit"
          disabled={adjust.isPending}
        >
          {t('adjustments.submit')}
        </button>
      </form>
    </Modal>
  )
}
