import { useTranslation } from 'react-i18next'
import './load-more.css'

interface LoadMoreProps {
  testId: string
  loading: boolean
  onLoad: () => void
}

/** The "load more" button under a paged list (money log, withdrawals, stakes, deposits, output records). */
export function LoadMore({ testId, loading, onLoad }: LoadMoreProps) {
  const { t } = useTranslation()
  return (
    <button type="button" className="load-more" data-testid={testId} disabled={loading} onClick={onLoad}>
      {loading ? t('common.loading') : t('common.loadMore')}
    </button>
  )
}
