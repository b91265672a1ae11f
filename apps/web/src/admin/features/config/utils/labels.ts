import { useTranslation } from 'react-i18next'
import { type FieldError, fieldName, type Path, parsePath } from './draft.ts'

/** A translation function that takes keys built at run time (the configuration's field names). */
type LooseT = (key: string, options?: Record<string, unknown>) => string

/**
 * Names of the configuration's fields and groups in the interface language ('config.fields.pledge.minUsdt', a
 * group's '….title'); a field the console has no name for yet shows its key.
 */
export function useFieldLabels() {
  const { t: typed } = useTranslation('admin')
  const t = typed as unknown as LooseT
  const last = (path: Path) => String(path.filter((part) => typeof part === 'string').at(-1) ?? '')
  const ofField = (path: Path) => t(`config.fields.${fieldName(path)}`, { defaultValue: last(path) })
  const ofGroup = (path: Path) => t(`config.fields.${fieldName(path)}.title`, { defaultValue: last(path) })
  return {
    ofField,
    ofGroup,
    /** A changed leaf of the history, e.g. 'Staking periods 2 · Days' for 'pledge.periods[1].days'. */
    ofPath(text: string) {
      const path = parsePath(text)
      const row = path.findLastIndex((part) => typeof part === 'number')
      if (row < 0) return ofField(path)
      const rows = ofGroup(path.slice(0, row))
      const index = (path[row] as number) + 1
      return row === path.length - 1 ? `${rows} ${index}` : `${rows} ${index} · ${ofField(path)}`
    },
    /** A field of an asset's settings ('min_withdraw'). */
    ofAssetField: (field: string) => t(`config.asset.${field}`, { defaultValue: field }),
    error: (error: FieldError) => t(`config.errors.${error.key}`, error.params),
  }
}
