import { useMemo } from 'react'
import { useTranslation } from 'react-i18next'
import {
  type Denomination,
  type FigureKind,
  formatAmountOf,
  formatBps,
  formatDecimal,
  formatMoney,
  formatMultiple,
  formatPower,
  formatRate,
  formatUnits,
  USDT,
} from './format.ts'

/** The number formatter of format.ts bound to the interface language: what screens show every figure with. */
export function useFormat() {
  const { i18n } = useTranslation()
  const language = i18n.resolvedLanguage
  return useMemo(
    () => ({
      /** '1,234.5' (no symbol) at the display precision of `kind` for the asset. */
      amount: (value: bigint | string, asset: Denomination, kind?: FigureKind, signed?: boolean) =>
        formatAmountOf(value, asset, language, kind, signed),
      /** '1,234.5 PLG' at the display precision of `kind` for the asset. */
      money: (value: bigint | string, asset: Denomination, kind?: FigureKind, signed?: boolean) =>
        formatMoney(value, asset, language, kind, signed),
      /** A USDT figure: '1,234.5 USDT'. */
      usdt: (value: bigint | string, kind?: FigureKind) => formatMoney(value, USDT, language, kind),
      /** A price the API sends as a decimal string: '0.512345'. */
      price: (text: string) => formatDecimal(text, language, 6, 'half-up'),
      /** Computing power: '12,345.67'. */
      power: (value: bigint | string) => formatPower(value, language),
      /** A count of people or things: '1,234'. */
      count: (value: number) => formatUnits(BigInt(value), 0, language),
      /** Basis points as a percentage: '12.5%'. */
      percent: (bps: number) => formatBps(bps, language),
      /** Basis points as a multiple: '×1.06'. */
      multiple: (bps: number) => formatMultiple(bps, language),
      /** An exact rate (returns.ts) as a percentage: '73%', '26.07%'. */
      rate: (rate: { num: bigint; den: bigint }) => formatRate(rate, language),
    }),
    [language],
  )
}
