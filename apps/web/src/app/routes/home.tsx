import { HomeScreen } from '@/features/home/components/home-screen.tsx'
import { BannerCarousel } from '@/features/notice/components/banner-carousel.tsx'
import { CampaignEntry } from '@/features/notice/components/campaign-entry.tsx'
import { CampaignPopup } from '@/features/notice/components/campaign-popup.tsx'
import { NoticeStrip } from '@/features/notice/components/notice-strip.tsx'

/** Home with the notice feature's banners, strip and campaign pop-up: features do not import each other, the app composes them. */
export default function HomeRoute() {
  return (
    <HomeScreen
      news={
        <>
          <BannerCarousel />
          <NoticeStrip />
          <CampaignEntry />
          <CampaignPopup />
        </>
      }
    />
  )
}
