import { adminApi } from '@solpledge/contract/admin'
import { type ConfigVersion, economicEffect, economicItems } from '@solpledge/contract/client'
import { type FormEvent, useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { TableWrap, Time } from '@/admin/components/ui.tsx'
import { useAllowed } from '@/admin/lib/api-client.ts'
import { Modal } from '@/components/modal.tsx'
import { toast } from '@/lib/toast.ts'
import { useSaveConfig } from '../api/config.ts'
import {
  type Change,
  configSchema,
  type Decimals,
  type Draft,
  diff,
  type FieldErrors,
  formatLeaf,
  leafOf,
  type Path,
  pathText,
  readDraft,
  toDraft,
} from '../utils/draft.ts'
import { useFieldLabels } from '../utils/labels.ts'

type JsonSchema = NonNullable<typeof configSchema.items>

export interface Units {
  decimals: Decimals
  symbols: { usdt: string; product: string }
}

/** The draft with `value` at `path`. */
function setAt(draft: Draft, path: Path, value: Draft): Draft {
  const [head, ...rest] = path
  if (head === undefined) return value
  if (Array.isArray(draft)) return draft.map((item, index) => (index === head ? setAt(item, rest, value) : item))
  const record = draft as Record<string, Draft>
  return { ...record, [head]: setAt(record[head as string] ?? '', rest, value) }
}

function getAt(draft: Draft, path: Path): Draft {
  return path.reduce<Draft>(
    (current, part) =>
      Array.isArray(current)
        ? (current[part as number] ?? '')
        : ((current as Record<string, Draft>)[part as string] ?? ''),
    draft,
  )
}

/** An empty row for an array of the schema `items`: checkboxes off, choices at their first option, texts empty. */
function emptyRow(items: JsonSchema, path: Path): Draft {
  if (items.type === 'object' && items.properties)
    return Object.fromEntries(
      Object.entries(items.properties).map(([key, child]) => [key, emptyRow(child, [...path, key])]),
    )
  const leaf = leafOf(items, path)
  if (leaf.kind === 'boolean') return false
  if (leaf.kind === 'choice') return String(leaf.options[0] ?? '')
  return ''
}

interface EditorProps {
  draft: Draft
  errors: FieldErrors
  units: Units
  disabled: boolean
  onChange: (path: Path, value: Draft) => void
}

/**
 * The business configuration (docs/admin.md#business-configuration): every constant of the product in one form laid out
 * by the contract's schema, validated as typed values, saved as a new version against the version it was loaded from
 * (refused if someone saved meanwhile). A confirmation lists what changes.
 */
export function BusinessForm({ version, units }: { version: ConfigVersion; units: Units }) {
  const { t } = useTranslation('admin')
  const canSave = useAllowed(adminApi.adminConfigSave)
  // The version as the form shows it: built on mount and on reset, not on every keystroke's render.
  const initial = () => toDraft(version.value, units.decimals)
  const [draft, setDraft] = useState(initial)
  const [errors, setErrors] = useState<FieldErrors>({})
  const [pending, setPending] = useState<{ changes: Change[]; value: ConfigVersion['value']; raises: boolean } | null>(
    null,
  )
  // A proposal or a scheduled change leaves the configuration in force as it is: the form shows it again (an applied
  // save makes a new version, and the form is made anew for it).
  const save = useSaveConfig(() => {
    setPending(null)
    setDraft(initial)
  })

  const onChange = (path: Path, value: Draft) => {
    setDraft((current) => setAt(current, path, value))
    setErrors((current) => {
      const { [pathText(path)]: _, ...rest } = current
      return rest
    })
  }

  const submit = (event: FormEvent) => {
    event.preventDefault()
    const read = readDraft(draft, units.decimals)
    if (!read.ok) {
      setErrors(read.errors)
      return toast.error(t('config.fixErrors'))
    }
    const changes = diff(version.value, read.value)
    if (changes.length === 0) return toast.error(t('config.noChanges'))
    const raises = economicEffect(economicItems(version.value, read.value)).raises.length > 0
    setPending({ changes, value: read.value, raises })
  }

  const top = Object.entries(configSchema.properties ?? {})
  const leaves = top.filter(([, schema]) => schema.type !== 'object' && schema.type !== 'array')
  const groups = top.filter(([, schema]) => schema.type === 'object' || schema.type === 'array')
  const editor = { draft, errors, units, disabled: !canSave || save.isPending, onChange }

  return (
    <form className="admin-form" onSubmit={submit} noValidate data-testid="admin-config-form">
      <p className="muted-note" data-testid="admin-config-version">
        {t('config.version', { id: version.id, by: version.changed_by })} <Time iso={version.created_at} />
      </p>
      {groups.map(([key, schema]) => (
        <Group key={key} path={[key]} schema={schema} {...editor} />
      ))}
      <fieldset className="admin-fieldset">
        <legend>{t('config.general')}</legend>
        <div className="admin-fields">
          {leaves.map(([key, schema]) => (
            <LeafField key={key} path={[key]} schema={schema} {...editor} />
          ))}
        </div>
      </fieldset>
      {Object.keys(errors).length > 0 && <p className="admin-error">{t('config.fixErrors')}</p>}
      <div className="admin-actions">
        <button
          type="submit"
          className="admin-button admin-primary"
          data-testid="admin-config-save"
          disabled={!canSave}
        >
          {t('config.save')}
        </button>
        <button
          type="button"
          className="admin-button"
          onClick={() => {
            setDraft(initial)
            setErrors({})
          }}
        >
          {t('config.reset')}
        </button>
        {!canSave && <span className="muted-note">{t('readOnly')}</span>}
      </div>
      <Modal
        open={pending !== null}
        title={t('config.confirmTitle')}
        onClose={save.isPending ? undefined : () => setPending(null)}
        testId="admin-config-confirm"
      >
        {pending && (
          <div className="admin-form">
            <ChangeList changes={pending.changes} units={units} />
            <EffectNote raises={pending.raises} />
            <button
              type="button"
              className="admin-button admin-primary"
              data-testid="admin-config-confirm-save"
              disabled={save.isPending}
              onClick={() => save.mutate({ base_version: version.id, value: pending.value })}
            >
              {t(pending.raises ? 'config.save' : 'config.confirm')}
            </button>
          </div>
        )}
      </Modal>
    </form>
  )
}

/**
 * What a change does to payouts (docs/economics.md): a raise takes effect after the notice period (and, once two
 * admins exist, a second admin's approval); anything else is in force at once.
 */
export function EffectNote({ raises }: { raises: boolean }) {
  const { t } = useTranslation('admin')
  return (
    <p className={raises ? 'admin-error' : 'muted-note'} data-testid="admin-change-effect" data-raises={raises}>
      {t(raises ? 'config.confirmRaises' : 'config.confirmLowers')}
    </p>
  )
}

/** Changes of a version for people: each field in its own unit, before → after. */
export function ChangeList({ changes, units }: { changes: readonly Change[]; units: Units }) {
  const label = useFieldLabels()
  return (
    <ul className="admin-changes" data-testid="admin-changes">
      {changes.map((change) => (
        <li key={change.path} data-testid="admin-change" data-path={change.path}>
          <span className="muted-note" title={change.path}>
            {label.ofPath(change.path)}
          </span>{' '}
          {formatLeaf(change.path, change.before, units.decimals, units.symbols)} →{' '}
          <strong>{formatLeaf(change.path, change.after, units.decimals, units.symbols)}</strong>
        </li>
      ))}
    </ul>
  )
}

/** An object (its fields) or an array (its rows) of the configuration, in its own fieldset. */
function Group({ path, schema, ...editor }: EditorProps & { path: Path; schema: JsonSchema }) {
  const label = useFieldLabels()
  if (schema.type === 'array' && schema.items) return <Rows path={path} items={schema.items} {...editor} />
  const entries = Object.entries(schema.properties ?? {})
  const leaves = entries.filter(([, child]) => child.type !== 'object' && child.type !== 'array')
  return (
    <fieldset className="admin-fieldset">
      <legend>{label.ofGroup(path)}</legend>
      {leaves.length > 0 && (
        <div className="admin-fields">
          {leaves.map(([key, child]) => (
            <LeafField key={key} path={[...path, key]} schema={child} {...editor} />
          ))}
        </div>
      )}
      {entries
        .filter(([, child]) => child.type === 'object' || child.type === 'array')
        .map(([key, child]) => (
          <Group key={key} path={[...path, key]} schema={child} {...editor} />
        ))}
    </fieldset>
  )
}

/** The rows of an array (periods, node levels, tiers, …): each row's fields in a line, with add and remove. */
function Rows({ path, items, ...editor }: EditorProps & { path: Path; items: JsonSchema }) {
  const { t } = useTranslation('admin')
  const label = useFieldLabels()
  const rows = getAt(editor.draft, path) as readonly Draft[]
  const columns = items.type === 'object' ? Object.entries(items.properties ?? {}) : null
  const error = editor.errors[pathText(path)]
  const setRows = (next: readonly Draft[]) => editor.onChange(path, next)
  return (
    <fieldset className="admin-fieldset" data-testid={`config-${pathText(path)}`}>
      <legend>{label.ofGroup(path)}</legend>
      <TableWrap>
        <table className="admin-table">
          {columns && (
            <thead>
              <tr>
                {columns.map(([key]) => (
                  <th key={key}>{label.ofField([...path, 0, key])}</th>
                ))}
                <th />
              </tr>
            </thead>
          )}
          <tbody>
            {rows.map((_, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: rows are edited in place by position
              <tr key={index}>
                {(columns ?? [['', items] as const]).map(([key, child]) => {
                  const cellPath = key ? [...path, index, key] : [...path, index]
                  return (
                    <td key={key}>
                      <LeafField path={cellPath} schema={child} bare {...editor} />
                    </td>
                  )
                })}
                <td>
                  <button
                    type="button"
                    className="admin-button admin-danger"
                    disabled={editor.disabled}
                    aria-label={t('config.removeRow')}
                    onClick={() => setRows(rows.filter((__, other) => other !== index))}
                  >
                    ×
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableWrap>
      {error && <p className="admin-error">{label.error(error)}</p>}
      <button
        type="button"
        className="admin-button"
        disabled={editor.disabled}
        onClick={() => setRows([...rows, rows.at(-1) ?? emptyRow(items, [...path, rows.length])])}
      >
        {t('config.addRow')}
      </button>
    </fieldset>
  )
}

/** One value: a checkbox, a choice, or a text field with its unit. `bare`: inside a row, the column names it. */
function LeafField({ path, schema, bare = false, draft, errors, units, disabled, onChange }: LeafProps) {
  const label = useFieldLabels()
  const leaf = leafOf(schema, path)
  const key = pathText(path)
  const value = getAt(draft, path)
  const error = errors[key]
  const name = label.ofField(path)
  const testId = `config-${key}`
  const id = useId()
  if (leaf.kind === 'boolean')
    return (
      <label className="admin-check">
        <input
          type="checkbox"
          data-testid={testId}
          checked={value === true}
          disabled={disabled}
          aria-label={name}
          onChange={(event) => onChange(path, event.target.checked)}
        />
        {!bare && name}
      </label>
    )
  const suffix = leaf.kind === 'amount' ? units.symbols[leaf.asset] : leaf.kind === 'percent' ? '%' : null
  return (
    <div className="admin-field">
      {!bare && <label htmlFor={id}>{name}</label>}
      <span className="admin-unit-input">
        {leaf.kind === 'choice' ? (
          <select
            id={id}
            data-testid={testId}
            value={String(value)}
            disabled={disabled}
            aria-label={name}
            onChange={(event) => onChange(path, event.target.value)}
          >
            {leaf.options.map((option) => (
              <option key={option}>{option}</option>
            ))}
          </select>
        ) : (
          <input
            id={id}
            type="text"
            inputMode={leaf.kind === 'text' ? 'text' : 'decimal'}
            autoComplete="off"
            spellCheck={false}
            data-testid={testId}
            value={String(value)}
            disabled={disabled}
            aria-label={name}
            aria-invalid={error !== undefined}
            onChange={(event) => onChange(path, event.target.value)}
          />
        )}
        {suffix && <span className="muted-note">{suffix}</span>}
      </span>
      {error && (
        <span className="admin-error" data-testid={`${testId}-error`}>
          {label.error(error)}
        </span>
      )}
    </div>
  )
}

interface LeafProps extends EditorProps {
  path: Path
  schema: JsonSchema
  bare?: boolean
}
