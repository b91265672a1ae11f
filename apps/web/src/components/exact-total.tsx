import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { type Denomination, type FigureKind, totalAgrees } from '@/lib/format.ts'
import { useFormat } from '@/lib/use-format.ts'
import './exact-total.css'

interface ExactTotalProps {
  /** The total, base units. */
  total: string
  /** The rows shown beside it (all of them), base units; null when only some are loaded. */
  rows: readonly string[] | null
  asset: Denomination
  kind: FigureKind
}

/**
 * A total beside its rows, at the precision of its kind like them (lib/format.ts). Where the rows as shown add up to
 * it as shown, it is plain text; where they cannot (rounded rows, or only some rows loaded), a tap — or a hover, its
 * title — shows it to the base unit, and another tap goes back.
 */
export function ExactTotal({ total, rows, asset, kind }: ExactTotalProps) {
  const { t } = useTranslation()
  const format = useFormat()
  const [exact, setExact] = useState(false)
  const shown = format.money(total, asset, kind)
  const full = format.money(total, asset, 'exact')
  if (shown === full || (rows !== null && totalAgrees(total, rows, asset, kind))) return shown
  return (
    <button
      type="button"
      className="exact-total"
      title={full}
      aria-label={exact ? full : t('common.exactTotal', { amount: shown })}
      aria-pressed={exact}
      data-testid="exact-total"
      onClick={() => setExact(!exact)}
    >
      {exact ? full : shown}
    </button>
  )
}
