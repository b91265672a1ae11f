import { useEffect, useRef } from 'react'
import { useTranslation } from 'react-i18next'

interface MoreOnScrollProps {
  testId: string
  loading: boolean
  onMore: () => void
}

/**
 * The end of a paged list: asks for more when it scrolls into view (and when tapped, for readers who do not scroll
 * or when a page failed to load).
 */
export function MoreOnScroll({ testId, loading, onMore }: MoreOnScrollProps) {
  const { t } = useTranslation()
  const ref = useRef<HTMLButtonElement>(null)
  const onMoreRef = useRef(onMore)
  onMoreRef.current = onMore

  useEffect(() => {
    const element = ref.current
    if (!element || loading || typeof IntersectionObserver === 'undefined') return
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) onMoreRef.current()
      },
      { rootMargin: '0px 0px 200px 0px' },
    )
    observer.observe(element)
    return () => observer.disconnect()
  }, [loading])

  return (
    <button ref={ref} type="button" className="notice-more" data-testid={testId} disabled={loading} onClick={onMore}>
      {loading ? t('common.loading') : t('notice.loadMore')}
    </button>
  )
}
