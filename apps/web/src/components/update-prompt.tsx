import { useTranslation } from 'react-i18next'
import { useWaitingUpdate } from '@/lib/app-update.ts'
import './update-prompt.css'

/** "A new version is ready — Reload" while a new version waits (lib/app-update.ts). */
export function UpdatePrompt() {
  const { t } = useTranslation()
  const apply = useWaitingUpdate()
  if (!apply) return null
  return (
    <div className="update-prompt" role="status" data-testid="update-prompt">
      <span>{t('update.ready')}</span>
      <button type="button" data-testid="update-reload" onClick={apply}>
        {t('update.reload')}
      </button>
    </div>
  )
}
