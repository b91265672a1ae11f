// The CSV files of the download routes (`csv` in a route's contract): how the server writes a line, and how a client
// (a test, a script) reads a file back.

/** A CSV cell: text, a number, or empty (null). */
export type CsvCell = string | number | bigint | null

/** A plain (signed, decimal) number: written as it is, so that a spreadsheet reads it as a number. */
const NUMBER = /^-?\d+(\.\d+)?$/
/** What a spreadsheet would run as a formula at the start of a cell (OWASP "CSV injection"). */
const FORMULA_START = /^[=+\-@\t\r]/

/**
 * One CSV line (RFC 4180, CRLF): a cell with a comma, quote or line break is quoted with its quotes doubled; a text
 * cell a spreadsheet would take for a formula is prefixed with an apostrophe (numbers, negative ones included, are
 * left as they are).
 */
export function csvLine(cells: readonly CsvCell[]): string {
  return `${cells
    .map((cell) => {
      if (cell === null) return ''
      let text = String(cell)
      if (typeof cell === 'string' && FORMULA_START.test(text) && !NUMBER.test(text)) text = `'${text}`
      return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text
    })
    .join(',')}\r\n`
}

/** Reads a CSV file as csvLine writes it (RFC 4180: quoted cells, doubled quotes, CRLF or LF): its lines' cells. */
export function parseCsv(text: string): string[][] {
  const lines: string[][] = []
  let cells: string[] = []
  let cell = ''
  let quoted = false
  for (let i = 0; i < text.length; i++) {
    const char = text[i] as string
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        cell += '"'
        i++
      } else if (char === '"') quoted = false
      else cell += char
    } else if (char === '"') quoted = true
    else if (char === ',') {
      cells.push(cell)
      cell = ''
    } else if (char === '\n' || char === '\r') {
      if (char === '\r' && text[i + 1] === '\n') i++
      cells.push(cell)
      lines.push(cells)
      cells = []
      cell = ''
    } else cell += char
  }
  if (cell !== '' || cells.length) lines.push([...cells, cell])
  return lines
}
