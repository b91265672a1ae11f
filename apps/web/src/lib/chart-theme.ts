import type { ChartOptions, ColorType, DeepPartial } from 'lightweight-charts'

/**
 * What every chart of the app shares (the trade chart, the history charts): a transparent background, the muted text
 * and faint grid of the dark theme, the interface language's numbers, no vertical drag (the page scrolls). Types only
 * from lightweight-charts: the library stays in the charts' own lazy chunks.
 */
export const chartTheme = (language: string | undefined): DeepPartial<ChartOptions> => ({
  autoSize: true,
  layout: {
    background: { type: 'solid' as ColorType.Solid, color: 'transparent' },
    textColor: '#8c92b4',
    fontSize: 11,
  },
  grid: { vertLines: { color: 'rgba(255, 255, 255, 0.04)' }, horzLines: { color: 'rgba(255, 255, 255, 0.04)' } },
  localization: { locale: language },
  handleScroll: { vertTouchDrag: false },
})
