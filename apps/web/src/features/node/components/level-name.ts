import type { TFunction } from 'i18next'
import { knownLevel } from '../utils/format.ts'

/** The translated name of a node level: 'Junior node', …; an unknown code is shown as it is. */
export function levelName(t: TFunction, code: string) {
  const level = knownLevel(code)
  return level ? t(`node.level.${level}`) : code
}
