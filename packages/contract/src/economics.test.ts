import { describe, expect, it } from 'vitest'
import { BusinessConfig } from './business-config.ts'
import { CONFIG_UNITS, economicBoundProblem, economicEffect, economicItems } from './economics.ts'

const config: BusinessConfig = {
  pledge: {
    minUsdt: '100000000',
    periods: [
      { days: 30, outputBps: 10_600, powerBps: 10_000 },
      { days: 90, outputBps: 12_000, powerBps: 15_000 },
    ],
  },
  nodeLevels: [
    {
      code: 'junior',
      priceUsdt: '500000000',
      supplyCap: 1000,
      powerBonusBps: 1000,
      dividendWeight: 1,
      onePerUser: true,
    },
  ],
  finance: [{ days: 30, powerBps: 12_000, outputBps: 250 }],
  referralRewards: [
    { level: 1, rateBps: 1000 },
    { level: 2, rateBps: 500 },
    { level: 3, rateBps: 300 },
  ],
  fuelTiers: [3000, 10000],
  settlementHourUtc: 0,
  rankIntervalSeconds: 3600,
  nodePoolDaily: '1000000000000',
  referencePrice: '500000',
  valuation: { windowSeconds: 86_400, bandBps: 2000, minQuoteVolume: '1000000000' },
  referralGuard: { minStakeUsdt: '100000000', directPerLevel: false },
  settlementBreaker: { averageMultipleBps: 50_000, reserveShareBps: 1000 },
  trade: { tickSize: '100', lotSize: '10000000', minAmount: '1000000000', maxAmount: '10000000000000000', feeBps: 10 },
}
const effect = (change: (c: BusinessConfig) => void) => {
  const after = structuredClone(config)
  change(after)
  const { raises, loosens } = economicEffect(economicItems(config, after))
  return { raises: raises.map((i) => `${i.field}${i.row ? `@${i.row}` : ''}`), loosens: loosens.map((i) => i.field) }
}

describe('economics: bounds and effects', () => {
  it('refuses the probe’s values naming the field and the bound', () => {
    const bound = (change: (c: BusinessConfig) => void) => {
      const value = structuredClone(config)
      change(value)
      return economicBoundProblem(value, 6)
    }
    expect(bound(() => {})).toBeNull()
    expect(bound((c) => c.pledge.periods.push({ days: 1, outputBps: 1_000_000, powerBps: 10_000 }))).toEqual({
      key: 'admin.tooLarge',
      params: { field: 'pledge.periods[2].outputBps', max: '300 %' },
    })
    expect(bound((c) => c.pledge.periods.push({ days: 10, outputBps: 14_000, powerBps: 10_000 }))).toEqual({
      key: 'admin.dailyYieldTooHigh',
      params: { field: 'pledge.periods[2]', value: '4 %', max: '3 %' },
    })
    expect(
      bound((c) => {
        c.referralRewards = [
          { level: 1, rateBps: 9000 },
          { level: 2, rateBps: 500 },
          { level: 3, rateBps: 500 },
        ]
      }),
    ).toEqual({ key: 'admin.tooLarge', params: { field: 'referralRewards[0].rateBps', max: '20 %' } })
    expect(bound((c) => (c.referencePrice = '1000000000000'))).toEqual({
      key: 'admin.tooLarge',
      params: { field: 'referencePrice', max: { units: '10000000000', decimals: 6, unit: 'USDT' } },
    })
    expect(bound((c) => ((c.nodeLevels[0] as { priceUsdt: string }).priceUsdt = '999999'))).toMatchObject({
      key: 'admin.tooSmall',
    })
  })

  it('tells raises of payouts from lowerings, rows matched by their key', () => {
    expect(effect(() => {})).toEqual({ raises: [], loosens: [] })
    // Lowerings and neutral changes: one admin's decision.
    expect(
      effect((c) => {
        c.referralRewards.pop()
        c.nodePoolDaily = '1'
        c.pledge.minUsdt = '1'
        c.trade.feeBps = 20
        c.settlementBreaker.reserveShareBps = 500
        c.referencePrice = '400000'
      }),
    ).toEqual({ raises: [], loosens: [] })
    // Reordering rows changes nothing.
    expect(effect((c) => c.pledge.periods.reverse())).toEqual({ raises: [], loosens: [] })
    expect(
      effect((c) => {
        ;(c.referralRewards[0] as { rateBps: number }).rateBps = 1200
        c.referralRewards.push({ level: 4, rateBps: 100 })
        c.pledge.periods.push({ days: 7, outputBps: 10_100, powerBps: 10_000 })
        ;(c.nodeLevels[0] as { priceUsdt: string }).priceUsdt = '400000000'
        c.trade.feeBps = 5
        c.referralGuard.directPerLevel = false
        c.referralGuard.minStakeUsdt = '0'
        c.fuelTiers = [2000, 10000]
      }),
    ).toEqual({
      raises: [
        'fuelTiers@1',
        'nodeLevels.priceUsdt@junior',
        'pledge.periods.outputBps@7',
        'pledge.periods.powerBps@7',
        'referralGuard.minStakeUsdt',
        'referralRewards.rateBps@1',
        'referralRewards.rateBps@4',
        'trade.feeBps',
      ],
      loosens: [],
    })
    expect(effect((c) => (c.settlementBreaker.averageMultipleBps = 60_000))).toEqual({
      raises: [],
      loosens: ['settlementBreaker.averageMultipleBps'],
    })
  })

  it('asset settings: a lower minimum or fee and a switch opened raise payouts', () => {
    const before = { min_withdraw: '10', withdraw_fee: '1', withdraw_enabled: false, is_user_recharge: true }
    const raises = (after: Partial<typeof before>) =>
      economicEffect(economicItems(before, { ...before, ...after }, 'asset')).raises.map((i) => i.field)
    expect(raises({ min_withdraw: '9', withdraw_fee: '2' })).toEqual(['asset.min_withdraw'])
    expect(raises({ withdraw_enabled: true, is_user_recharge: false })).toEqual(['asset.withdraw_enabled'])
    expect(raises({ min_withdraw: '11', withdraw_fee: '0' })).toEqual(['asset.withdraw_fee'])
  })
})

describe('the configuration units, declared once', () => {
  interface Node {
    type?: string
    pattern?: string
    properties?: Record<string, Node>
    items?: Node
    'x-unit'?: string
  }
  /** Every leaf of the schema by field (the path without row indices). */
  function leaves(node: Node, field = ''): [string, Node][] {
    if (node.properties)
      return Object.entries(node.properties).flatMap(([key, child]) => leaves(child, field ? `${field}.${key}` : key))
    if (node.items && node.type === 'array') return node.items.properties ? leaves(node.items, field) : [[field, node]]
    return [[field, node]]
  }
  const all = leaves(BusinessConfig as unknown as Node)

  it('the schema carries each unit of CONFIG_UNITS on its leaf, and no other', () => {
    const annotated = Object.fromEntries(
      all.flatMap(([field, node]) => (node['x-unit'] ? [[field, node['x-unit']]] : [])),
    )
    const declared = Object.fromEntries(
      Object.entries(CONFIG_UNITS).map(([field, unit]) => [field, unit === 'bps' ? 'bps' : unit.asset]),
    )
    expect(annotated).toEqual(declared)
  })

  it('every amount (a string of digits) and every basis-point field of the schema has a unit', () => {
    const unitless = all
      .filter(([field, node]) => /\[0-9]/.test(node.pattern ?? '') || /Bps$/.test(field))
      .filter(([, node]) => !node['x-unit'])
      .map(([field]) => field)
    expect(unitless).toEqual([])
  })
})
