import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Modal } from '@/components/modal.tsx'
import { PrimaryButton } from '@/components/primary-button.tsx'
import './bind-dialog.css'

interface BindDialogProps {
  open: boolean
  /** The invite code from the URL (?code=) captured at start-up. */
  initialCode: string
  onBind: (inviteCode: string) => void
}

/** Binds the wallet to its referrer (docs/product.md#binding): no close button, it stays until the user is bound. */
export function BindDialog({ open, initialCode, onBind }: BindDialogProps) {
  const { t } = useTranslation()
  const [code, setCode] = useState(initialCode)
  return (
    <Modal open={open} title={t('bind.title')} testId="bind-dialog">
      <form
        className="bind-form"
        onSubmit={(event) => {
          event.preventDefault()
          onBind(code)
        }}
      >
        <input
          data-testid="bind-input"
          value={code}
          onChange={(event) => setCode(event.target.value)}
          placeholder={t('bind.placeholder')}
          aria-label={t('bind.placeholder')}
          autoComplete="off"
          autoCapitalize="off"
          spellCheck={false}
        />
        <p className="bind-note">{t('bind.note')}</p>
        <PrimaryButton type="submit" data-testid="bind-button">
          {t('bind.button')}
        </PrimaryButton>
      </form>
    </Modal>
  )
}
