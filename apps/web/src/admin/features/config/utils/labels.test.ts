import { describe, expect, it } from 'vitest'
import en from '../../../../i18n/admin/en.json'
import { ASSET_AMOUNTS, ASSET_FLAGS, ASSET_THRESHOLDS } from './asset-settings.ts'
import { configSchema } from './draft.ts'

type Schema = typeof configSchema

/**
 * The names the console shows for the configuration (labels.ts): every group (an object or a list) its '….title',
 * every field of an object its own text. labels.ts falls back to the field's key, so without this test a field the
 * schema gains would show as 'minStakeUsdt' to an operator. The other languages have every key English has
 * (i18n/locales.test.ts).
 */
function labelKeys(schema: Schema, field = ''): string[] {
  const at = (key: string) => (field ? `${field}.${key}` : key)
  if (schema.type === 'object' && schema.properties) {
    const own = field ? [`${field}.title`] : []
    return [...own, ...Object.entries(schema.properties).flatMap(([key, child]) => labelKeys(child, at(key)))]
  }
  if (schema.type === 'array' && schema.items) {
    const items = schema.items
    if (items.type !== 'object' || !items.properties) return [`${field}.title`]
    return [`${field}.title`, ...Object.entries(items.properties).flatMap(([key, child]) => labelKeys(child, at(key)))]
  }
  return [field]
}

const textAt = (root: unknown, key: string) =>
  key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], root)

describe('the console names every setting', () => {
  it('every group and field of the business configuration has its name', () => {
    const keys = labelKeys(configSchema)
    expect(keys).toContain('pledge.periods.outputBps')
    const missing = keys.filter((key) => typeof textAt(en.config.fields, key) !== 'string')
    expect(missing).toEqual([])
  })

  it("every field of an asset's settings has its name", () => {
    const missing = [...ASSET_FLAGS, ...ASSET_AMOUNTS, ...ASSET_THRESHOLDS].filter(
      (key) => typeof textAt(en.config.asset, key) !== 'string',
    )
    expect(missing).toEqual([])
  })
})
