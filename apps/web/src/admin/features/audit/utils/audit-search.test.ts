import { describe, expect, it } from 'vitest'
import { auditQuery } from './audit-search.ts'

describe('audit search', () => {
  it('leaves out empty fields and trims the texts', () => {
    expect(auditQuery({ action: ' withdrawal. ', actor: '', target: '  ', from: '', to: '' })).toEqual({
      action: 'withdrawal.',
    })
  })

  it('sends local date-times as ISO instants', () => {
    const from = '2026-05-01T09:30'
    expect(auditQuery({ action: '', actor: '', target: '', from, to: 'not a time' })).toEqual({
      from: new Date(from).toISOString(),
    })
  })
})
