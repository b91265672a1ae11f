import { describe, expect, it } from 'vitest'
import { csvLine, parseCsv } from './csv.ts'

describe('CSV lines (csvLine) and files (parseCsv)', () => {
  it('quotes what needs quoting, leaves the rest, and reads back what it wrote', () => {
    const rows = [
      ['time_utc', 'amount', 'note'],
      ['2026-11-28T10:00:00.000Z', '-100.1', 'a, "quoted" word\nand a line'],
      ['x', 0, null],
    ]
    const text = rows.map(csvLine).join('')
    expect(text).toBe(
      'time_utc,amount,note\r\n2026-11-28T10:00:00.000Z,-100.1,"a, ""quoted"" word\nand a line"\r\nx,0,\r\n',
    )
    expect(parseCsv(text)).toEqual([rows[0], rows[1], ['x', '0', '']])
  })

  it('keeps a spreadsheet from running a text cell as a formula, numbers as they are', () => {
    expect(csvLine(['=HYPERLINK("x")', '+1+1', '@SUM(A1)', '-2', '-0.5', '-x'])).toBe(
      `"'=HYPERLINK(""x"")",'+1+1,'@SUM(A1),-2,-0.5,'-x\r\n`,
    )
  })
})
