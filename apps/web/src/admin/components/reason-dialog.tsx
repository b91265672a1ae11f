import { type FormEvent, type ReactNode, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { checkReason, REASON_MAX } from '@/admin/lib/reason.ts'
import { Modal } from '@/components/modal.tsx'

interface ReasonDialogProps {
  open: boolean
  title: string
  /** What is about to happen, shown above the reason. */
  children?: ReactNode
  confirm: string
  pending: boolean
  onConfirm: (reason: string) => void
  onClose: () => void
}

/** Asks why before a decision that is kept in the audit log (reject, revoke): the reason is mandatory. */
export function ReasonDialog({ open, title, children, confirm, pending, onConfirm, onClose }: ReasonDialogProps) {
  const { t } = useTranslation('admin')
  const [reason, setReason] = useState('')
  const [error, setError] = useState<string | null>(null)
  const close = () => {
    setReason('')
    setError(null)
    onClose()
  }
  const submit = (event: FormEvent) => {
    event.preventDefault()
    const check = checkReason(reason)
    if (!check.ok) return setError(t(`reason.${check.error}`, check.params))
    onConfirm(check.value)
  }
  return (
    <Modal open={open} title={title} onClose={pending ? undefined : close} testId="admin-reason-dialog">
      <form className="admin-form" onSubmit={submit} noValidate>
        {children}
        <label className="admin-field">
          <span>{t('reason.label')}</span>
          <textarea
            data-testid="admin-reason"
            value={reason}
            maxLength={REASON_MAX}
            aria-invalid={error !== null}
            onChange={(event) => {
              setReason(event.target.value)
              setError(null)
            }}
          />
        </label>
        {error && <p className="admin-error">{error}</p>}
        <button
          type="submit"
          className="admin-button admin-danger"
          data-testid="admin-reason-confirm"
          disabled={pending}
        >
          {confirm}
        </button>
      </form>
    </Modal>
  )
}
