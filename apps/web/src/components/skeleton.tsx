import type { CSSProperties } from 'react'
import { useTranslation } from 'react-i18next'
import './skeleton.css'

interface SkeletonProps {
  /** How many placeholder bars (list rows, cards, lines of text). */
  rows?: number
  /** Each bar's height, as tall as what it stands for so nothing moves when the data arrives (CLS)… */
  height?: number
  /** …or its width-to-height ratio (CSS aspect-ratio) for media. */
  aspectRatio?: string
  testId?: string
}

/**
 * Placeholder bars where a screen waits for its data (the 'loading' text stays for lazy screens:
 * docs/product.md#screens): screen readers hear 'Loading', sighted users see the shape of what comes.
 */
export function Skeleton({ rows = 1, height = 16, aspectRatio, testId = 'skeleton' }: SkeletonProps) {
  const { t } = useTranslation()
  const style: CSSProperties = aspectRatio ? { aspectRatio } : { height }
  return (
    <div className="skeleton" role="status" aria-busy="true" data-testid={testId}>
      <span className="skeleton-label">{t('common.loading')}</span>
      {Array.from({ length: rows }, (_, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: identical placeholders, never reordered
        <span key={index} className="skeleton-bar" style={style} aria-hidden="true" />
      ))}
    </div>
  )
}
