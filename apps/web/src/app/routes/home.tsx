import { HomeScreen } from '@/features/home/components/home-screen.tsx'
import { BannerCarousel } from '@/features/notice/components/banner-carousel.tsx'
import { NoticeStrip } from '@/features/notice/components/notice-strip.tsx'

/** Home with the notice feature's banners and strip: features do not import each other, the app composes them. */
export default function HomeRoute() {
  return (
    <HomeScreen
      news={
        <>
          <BannerCarousel />
          <NoticeStrip />
        </>
      }
    />
  )
}
