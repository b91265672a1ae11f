import { type BusinessConfig, DEFAULT_BUSINESS_CONFIG } from '@solpledge/contract'
import { describe, expect, it } from 'vitest'
import { type Draft, diff, formatLeaf, parsePath, pathText, readDraft, toDraft } from './draft.ts'

const decimals = { usdt: 6, product: 9 }
const symbols = { usdt: 'USDT', product: 'PLG' }
/** A whole configuration as the console receives it (the server's demo values), every field of the schema set. */
const config: BusinessConfig = DEFAULT_BUSINESS_CONFIG

/** The draft with the field at `path` set to `text`. */
function edit(draft: Draft, path: (string | number)[], text: Draft): Draft {
  const [head, ...rest] = path
  if (head === undefined) return text
  if (Array.isArray(draft)) return draft.map((item, index) => (index === head ? edit(item, rest, text) : item))
  const record = draft as Record<string, Draft>
  return { ...record, [head]: edit(record[head as string] as Draft, rest, text) }
}

describe('the configuration form', () => {
  it('shows amounts as decimals of their asset and rates as percentages', () => {
    expect(toDraft(config, decimals)).toMatchObject({
      pledge: { minUsdt: '100', periods: [{ days: '30', outputBps: '106', powerBps: '100' }, {}, {}] },
      nodeLevels: [{ code: 'junior', priceUsdt: '500', powerBonusBps: '10', onePerUser: true }, {}, {}],
      finance: [{ days: '7', outputBps: '0.5' }, {}, {}, {}],
      nodePoolDaily: '1000',
      referencePrice: '0.5',
      trade: { tickSize: '0.0001', lotSize: '0.01', minAmount: '1', feeBps: '0.1' },
      valuation: { windowSeconds: '86400', bandBps: '20', minQuoteVolume: '1000' },
    })
  })

  it('reads an untouched form back as the same configuration', () => {
    expect(readDraft(toDraft(config, decimals), decimals)).toEqual({ ok: true, value: config })
  })

  it('reads an edited minimum as base units and a rate as basis points', () => {
    let draft = edit(toDraft(config, decimals), ['pledge', 'minUsdt'], '150.25')
    draft = edit(draft, ['finance', 1, 'outputBps'], '2.75')
    const read = readDraft(draft, decimals)
    if (!read.ok) throw new Error(JSON.stringify(read.errors))
    expect(read.value.pledge.minUsdt).toBe('150250000')
    expect(read.value.finance[1]?.outputBps).toBe(275)
    expect(diff(config, read.value)).toEqual([
      { path: 'pledge.minUsdt', before: '100000000', after: '150250000' },
      { path: 'finance[1].outputBps', before: 250, after: 275 },
    ])
  })

  it('marks each field that cannot be read, by its path', () => {
    let draft = edit(toDraft(config, decimals), ['pledge', 'minUsdt'], '1.0000001')
    draft = edit(draft, ['referralRewards', 0, 'rateBps'], 'ten')
    draft = edit(draft, ['settlementHourUtc'], '')
    expect(readDraft(draft, decimals)).toEqual({
      ok: false,
      errors: {
        'pledge.minUsdt': { key: 'decimals', params: { decimals: 6 } },
        'referralRewards[0].rateBps': { key: 'format' },
        settlementHourUtc: { key: 'empty' },
      },
    })
  })

  it("checks the contract's bounds and tells them in the field's unit", () => {
    let draft = edit(toDraft(config, decimals), ['settlementHourUtc'], '24')
    draft = edit(draft, ['trade', 'feeBps'], '10.01')
    draft = edit(draft, ['pledge', 'periods'], [])
    draft = edit(draft, ['valuation', 'bandBps'], '95')
    draft = edit(draft, ['valuation', 'windowSeconds'], '60')
    expect(readDraft(draft, decimals)).toEqual({
      ok: false,
      errors: {
        settlementHourUtc: { key: 'maximum', params: { limit: '23' } },
        'trade.feeBps': { key: 'maximum', params: { limit: '10' } },
        'pledge.periods': { key: 'minItems', params: { limit: 1 } },
        'valuation.bandBps': { key: 'maximum', params: { limit: '90' } },
        'valuation.windowSeconds': { key: 'minimum', params: { limit: '600' } },
      },
    })
  })

  it('refuses a finance period that is not one of the allowed ones', () => {
    const draft = edit(toDraft(config, decimals), ['finance', 0, 'days'], '8')
    expect(readDraft(draft, decimals)).toMatchObject({ ok: false, errors: { 'finance[0].days': { key: 'invalid' } } })
  })

  it('lists added and removed rows leaf by leaf', () => {
    const after = { ...config, referralRewards: [...config.referralRewards, { level: 4, rateBps: 100 }] }
    expect(diff(config, after)).toEqual([
      { path: 'referralRewards[3].level', before: undefined, after: 4 },
      { path: 'referralRewards[3].rateBps', before: undefined, after: 100 },
    ])
    expect(diff(after, config)).toEqual([
      { path: 'referralRewards[3].level', before: 4, after: undefined },
      { path: 'referralRewards[3].rateBps', before: 100, after: undefined },
    ])
  })

  it('formats a changed value in its unit for the history', () => {
    expect(formatLeaf('pledge.minUsdt', '150000000', decimals, symbols)).toBe('150 USDT')
    expect(formatLeaf('finance[1].outputBps', 275, decimals, symbols)).toBe('2.75 %')
    expect(formatLeaf('nodePoolDaily', '1000000000', decimals, symbols)).toBe('1 PLG')
    expect(formatLeaf('fuelTiers[2]', 20000, decimals, symbols)).toBe('20000')
    expect(formatLeaf('nodeLevels[0].onePerUser', false, decimals, symbols)).toBe('false')
    expect(formatLeaf('referralRewards[3].level', undefined, decimals, symbols)).toBe('—')
    expect(formatLeaf('somethingNew', 'x', decimals, symbols)).toBe('"x"')
  })

  it('spells paths as the server does', () => {
    expect(pathText(['finance', 1, 'outputBps'])).toBe('finance[1].outputBps')
    expect(parsePath('finance[1].outputBps')).toEqual(['finance', 1, 'outputBps'])
    expect(parsePath('fuelTiers[2]')).toEqual(['fuelTiers', 2])
  })
})
