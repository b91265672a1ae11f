import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { Modal } from '@/components/modal.tsx'

interface ConfirmDialogProps {
  open: boolean
  title: string
  /** What is about to happen: the amount and whose it is. */
  children: ReactNode
  confirm: string
  pending: boolean
  onConfirm: () => void
  onClose: () => void
}

/** Asks before a decision that moves money or access (approve a withdrawal, an adjustment, a change). */
export function ConfirmDialog({ open, title, children, confirm, pending, onConfirm, onClose }: ConfirmDialogProps) {
  const { t } = useTranslation('admin')
  return (
    <Modal open={open} title={title} onClose={pending ? undefined : onClose} testId="admin-confirm-dialog">
      <div className="admin-form">
        <div className="admin-confirm-text" data-testid="admin-confirm-text">
          {children}
        </div>
        <div className="admin-actions">
          <button
            type="button"
            className="admin-button admin-primary"
            data-testid="admin-confirm"
            disabled={pending}
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
