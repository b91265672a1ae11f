import { useTranslation } from 'react-i18next'
import './loading-overlay.css'

/**
 * Full-screen overlay with a white 48px spinner and a text, 'Loading' unless told (docs/product.md#shared-elements).
 */
export function LoadingOverlay({ text }: { text?: string }) {
  const { t } = useTranslation()
  return (
    <div className="loading-overlay" data-testid="loading-overlay" role="status" aria-live="polite">
      <span className="loading-spinner" aria-hidden="true" />
      <p>{text ?? t('common.loading')}</p>
    </div>
  )
}
