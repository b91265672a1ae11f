// db/schema.ts is written by hand beside the migrations. This test holds it to the migrated database: every table and
// column it declares exists, every one the database has is declared, nullability agrees, a column typed Generated<…>
// has a default, and each column's TypeScript type fits its SQL type — above all, int8 and numeric (money in base
// units) come back as decimal strings and must never be typed number.
import fs from 'node:fs'
import { sql } from 'kysely'
import ts from 'typescript'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Database } from '../src/db/index.ts'
import { dbKind, freshDatabase } from './helpers.ts'

const SCHEMA = new URL('../src/db/schema.ts', import.meta.url)

interface Declared {
  /** The column's type as written (aliases unresolved: Int8, Numeric, Timestamp, Generated<…>, ColumnType<…>). */
  type: string
  nullable: boolean
  generated: boolean
}

/**
 * The tables of schema.ts's `DB` interface and, for each, its columns as declared: read with the TypeScript compiler
 * from the source, as tsc reads it.
 */
function declaredSchema(source: string): Map<string, Map<string, Declared>> {
  const file = ts.createSourceFile('schema.ts', source, ts.ScriptTarget.Latest, true)
  const interfaces = new Map<string, ts.InterfaceDeclaration>()
  for (const node of file.statements) if (ts.isInterfaceDeclaration(node)) interfaces.set(node.name.text, node)
  const props = (node: ts.InterfaceDeclaration) =>
    node.members.filter(ts.isPropertySignature).map((m) => ({ name: m.name.getText(file), type: m.type }))
  const db = interfaces.get('DB')
  if (!db) throw new Error('schema.ts declares no DB interface')
  const tables = new Map<string, Map<string, Declared>>()
  for (const table of props(db)) {
    const shape = interfaces.get(table.type?.getText(file) ?? '')
    if (!shape) throw new Error(`schema.ts: the table ${table.name}'s interface is not declared in the file`)
    const columns = new Map<string, Declared>()
    for (const column of props(shape)) {
      const type = column.type
      if (!type) throw new Error(`schema.ts: ${table.name}.${column.name} has no type`)
      const generated =
        ts.isTypeReferenceNode(type) && type.typeName.getText(file) === 'Generated' && type.typeArguments !== undefined
      const inner = generated && ts.isTypeReferenceNode(type) ? (type.typeArguments?.[0] ?? type) : type
      const members = ts.isUnionTypeNode(inner) ? inner.types : [inner]
      const isNull = (t: ts.TypeNode) => ts.isLiteralTypeNode(t) && t.literal.kind === ts.SyntaxKind.NullKeyword
      columns.set(column.name, {
        type: members
          .filter((t) => !isNull(t))
          .map((t) => t.getText(file))
          .join(' | '),
        nullable: members.some(isNull),
        generated,
      })
    }
    tables.set(table.name, columns)
  }
  return tables
}

/**
 * Whether a declared type fits an SQL type as the drivers (PGlite and node-postgres, db/index.ts) return it: int8 and
 * numeric as decimal strings, int2/int4 as numbers, timestamps as Dates, dates as 'YYYY-MM-DD' strings, json as parsed values, arrays as arrays.
 */
function fits(declared: string, sqlType: string): boolean {
  if (sqlType.startsWith('_')) return declared.endsWith('[]') && fits(declared.slice(0, -2), sqlType.slice(1))
  switch (sqlType) {
    case 'int8':
    case 'numeric':
      return declared === 'Int8' || declared === 'Numeric' || declared === 'string'
    case 'int2':
    case 'int4':
      return declared === 'number'
    case 'bool':
      return declared === 'boolean'
    case 'timestamptz':
    case 'timestamp':
      return declared === 'Timestamp' || declared === 'Date'
    case 'date':
      // Kept as 'YYYY-MM-DD' by both drivers (db/index.ts), not made a Date.
      return declared === 'Day' || declared === 'string'
    case 'text':
    case 'varchar':
    case 'bpchar':
      // A string, or a union of string literals (a check constraint's values), or an alias of one.
      return declared === 'string' || /^('[^']*'( \| )?)+$/.test(declared) || /^[A-Z]\w*$/.test(declared)
    case 'bytea':
      return declared === 'Buffer' || declared === 'Uint8Array'
    case 'json':
    case 'jsonb':
      return declared === 'unknown' || declared.startsWith('ColumnType<')
    default:
      return false
  }
}

describe(`db/schema.ts matches the migrated database (${dbKind})`, () => {
  let db: Database
  let drop: () => Promise<void>
  const declared = declaredSchema(fs.readFileSync(SCHEMA, 'utf8'))

  beforeAll(async () => {
    ;({ db, drop } = await freshDatabase())
  })
  afterAll(() => drop())

  async function actualSchema() {
    const { rows } = await sql<{
      table: string
      column: string
      type: string
      nullable: 'YES' | 'NO'
      has_default: boolean
    }>`
      select c.table_name as "table", c.column_name as "column", c.udt_name as "type", c.is_nullable as nullable,
        (c.column_default is not null or c.is_identity = 'YES') as has_default
      from information_schema.columns c
      join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
      where c.table_schema = current_schema() and t.table_type = 'BASE TABLE'
        and c.table_name not in ('kysely_migration', 'kysely_migration_lock')
      order by 1, c.ordinal_position`.execute(db)
    const tables = new Map<string, typeof rows>()
    for (const row of rows) tables.set(row.table, [...(tables.get(row.table) ?? []), row])
    return tables
  }

  it('declares every table and column the migrations create, and nothing else', async () => {
    const actual = await actualSchema()
    expect([...declared.keys()].sort()).toEqual([...actual.keys()].sort())
    for (const [table, rows] of actual)
      expect([...(declared.get(table)?.keys() ?? [])].sort(), table).toEqual(rows.map((r) => r.column).sort())
  })

  it('agrees on nullability, defaults and types, column by column', async () => {
    const problems: string[] = []
    for (const [table, rows] of await actualSchema())
      for (const row of rows) {
        const column = declared.get(table)?.get(row.column)
        if (!column) continue
        const name = `${table}.${row.column} (${row.type})`
        // `unknown` (a json column's value, alone or as a ColumnType's select type) holds null as well.
        const holdsAnything = /^(unknown|ColumnType<unknown,)/.test(column.type)
        if (!holdsAnything && column.nullable !== (row.nullable === 'YES'))
          problems.push(`${name}: ${column.nullable ? 'declared nullable, is not null' : 'nullable, declared not'}`)
        if (column.generated && !row.has_default) problems.push(`${name}: Generated<…> but has no default`)
        if (!fits(column.type, row.type)) problems.push(`${name}: declared ${column.type}`)
      }
    expect(problems).toEqual([])
  })
})

describe('the schema reader', () => {
  it('reads nullability, Generated and the type, and the check sees a wrong one', () => {
    const tables = declaredSchema(`
      interface ATable { id: Generated<Int8>; amount: Numeric; note: string | null; n: number }
      export interface DB { a: ATable }`)
    expect(Object.fromEntries(tables.get('a') ?? [])).toEqual({
      id: { type: 'Int8', nullable: false, generated: true },
      amount: { type: 'Numeric', nullable: false, generated: false },
      note: { type: 'string', nullable: true, generated: false },
      n: { type: 'number', nullable: false, generated: false },
    })
    // Money typed as a number would be read as a string and summed as one: refused.
    expect(fits('number', 'numeric')).toBe(false)
    expect(fits('Numeric', 'numeric')).toBe(true)
    expect(fits('string[]', '_text')).toBe(true)
    expect(fits('string', 'int4')).toBe(false)
  })
})
