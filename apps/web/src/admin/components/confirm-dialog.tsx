import { type ReactNode, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Modal } from '@/components/modal.tsx'

interface ConfirmDialogProps {
  open: boolean
  title: string
  /** What is about to happen: the amount and whose it is. */
  children: ReactNode
  /**
   * Why this decision needs a second thought (e.g. the reviewer's own wallet receives the money): shown as a warning,
   * and confirming then asks again — the reviewer ticks `acknowledge` first.
   */
  warning?: { text: ReactNode; acknowledge: string } | null
  confirm: string
  pending: boolean
  onConfirm: () => void
  onClose: () => void
}

/** Asks before a decision that moves money or access (approve a withdrawal, an adjustment, a change). */
export function ConfirmDialog({
  open,
  title,
  children,
  warning,
  confirm,
  pending,
  onConfirm,
  onClose,
}: ConfirmDialogProps) {
  const { t } = useTranslation('admin')
  const [acknowledged, setAcknowledged] = useState(false)
  // Every opening asks again.
  const [wasOpen, setWasOpen] = useState(open)
  if (open !== wasOpen) {
    setWasOpen(open)
    setAcknowledged(false)
  }
  return (
    <Modal open={open} title={title} onClose={pending ? undefined : onClose} testId="admin-confirm-dialog">
      <div className="admin-form">
        <div className="admin-confirm-text" data-testid="admin-confirm-text">
          {children}
        </div>
        {warning && (
          <div className="admin-warning" role="alert">
            <p data-testid="admin-confirm-warning">{warning.text}</p>
            <label className="admin-check">
              <input
                type="checkbox"
                data-testid="admin-confirm-acknowledge"
                checked={acknowledged}
                disabled={pending}
                onChange={(event) => setAcknowledged(event.target.checked)}
              />
              <span>{warning.acknowledge}</span>
            </label>
          </div>
        )}
        <div className="admin-actions">
          <button
            type="button"
            className="admin-button admin-primary"
            data-testid="admin-confirm"
            disabled={pending || (!!warning && !acknowledged)}
            onClick={onConfirm}
          >
            {confirm}
          </button>
          <button type="button" className="admin-button" disabled={pending} onClick={onClose}>
            {t('confirm.cancel')}
          </button>
        </div>
      </div>
    </Modal>
  )
}
