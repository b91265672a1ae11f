import { useEffect, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { Skeleton } from '@/components/skeleton.tsx'
import { safeHref } from '@/lib/rich-text.ts'
import { type Banner, useBanners } from '../api/get-banners.ts'
import './home-notices.css'

/** Seconds each banner shows before the next slides in. */
const ADVANCE_MS = 5_000

function Slide({ banner }: { banner: Banner }) {
  const image = <img src={banner.image_url} alt="" draggable={false} />
  const caption = (
    <span className="banner-caption" lang={banner.lang}>
      {banner.title}
    </span>
  )
  const href = safeHref(banner.link ?? undefined)
  const props = { className: 'banner-slide', 'data-testid': 'banner', 'data-id': banner.id }
  if (href?.startsWith('/'))
    return (
      <Link to={href} {...props}>
        {image}
        {caption}
      </Link>
    )
  if (href)
    return (
      <a href={href} target="_blank" rel="noopener noreferrer" {...props}>
        {image}
        {caption}
      </a>
    )
  return (
    <div {...props}>
      {image}
      {caption}
    </div>
  )
}

/**
 * The home carousel (docs/product.md#home: banners of type 1): swipe or wait; dots show where you are. Nothing shows
 * while there are no banners (a failure to load them is only logged).
 */
export function BannerCarousel() {
  const { t } = useTranslation()
  const { data: banners = [], isPending } = useBanners()
  const track = useRef<HTMLDivElement>(null)
  const [current, setCurrent] = useState(0)
  const count = banners.length

  // Which slide is in view, as the user swipes or the timer scrolls.
  const onScroll = () => {
    const element = track.current
    if (element && element.clientWidth > 0) setCurrent(Math.round(element.scrollLeft / element.clientWidth))
  }

  const goTo = (index: number) => {
    const element = track.current
    element?.scrollTo({ left: index * element.clientWidth, behavior: 'smooth' })
  }

  useEffect(() => {
    if (count < 2 || window.matchMedia?.('(prefers-reduced-motion: reduce)').matches) return
    const timer = window.setInterval(() => {
      const element = track.current
      if (!element || document.hidden) return
      const next = (Math.round(element.scrollLeft / element.clientWidth) + 1) % count
      element.scrollTo({ left: next * element.clientWidth, behavior: 'smooth' })
    }, ADVANCE_MS)
    return () => window.clearInterval(timer)
  }, [count])

  if (isPending) return <Skeleton aspectRatio="5 / 2" testId="banner-skeleton" />
  if (count === 0) return null
  return (
    <section className="banner-carousel" aria-roledescription="carousel" aria-label={t('notice.banners')}>
      <div className="banner-track" ref={track} onScroll={onScroll} data-testid="banner-carousel">
        {banners.map((banner) => (
          <Slide key={banner.id} banner={banner} />
        ))}
      </div>
      {count > 1 && (
        <div className="banner-dots">
          {banners.map((banner, index) => (
            <button
              key={banner.id}
              type="button"
              aria-label={banner.title}
              aria-current={index === current}
              onClick={() => goTo(index)}
            />
          ))}
        </div>
      )}
    </section>
  )
}
