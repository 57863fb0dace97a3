/**
 * The one form renderer (issue 4 item 6): draws a template version (layout + indicators) as a
 * form, for the CRF preview now and for data entry later. Controlled: the caller holds the value
 * (FormData) and gets every change through onChange. The rules live in formRenderer/formModel.ts
 * (pure, tested); the kinds in formRenderer/fieldKind.ts.
 *
 * Keyboard: Tab goes field to field (a checkbox group is one stop, arrows move inside it, as they
 * do in a radio group); Enter in a field goes to the next field and never submits anything.
 *
 * Large forms (3,000 fields): fields mount a slice per task (ui/progressive.ts) and each field
 * re-renders only when its own value, message or definition changes (a memoised field with
 * callbacks that never change), so typing costs one field, not the form.
 */
import { memo, useCallback, useId, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react'
import { Button } from '@blueprintjs/core'
import type { LayoutSection } from '../../contract/crf.ts'
import type { Indicator } from '../../contract/dictionary.ts'
import { useLang, useT } from '../i18n/useT.ts'
import { renderMessage } from '../lib/validators.ts'
import { Field, type FieldProps } from './formRenderer/Field.tsx'
import {
  fieldPath,
  indicatorMap,
  isVisible,
  keyOf,
  newRow,
  parseFieldPath,
  rowPath,
  validateForm,
  type FieldValue,
  type FieldValues,
  type FormData,
  type FormDefinition,
  type FormErrors,
} from './formRenderer/formModel.ts'
import { entersNext, focusNextField, focusRowAfterRemoval } from './formRenderer/keyboard.ts'
import { splitBudget, useProgressiveLimit } from './progressive.ts'

export type { FormData, FormDefinition, FieldValue, FieldValues } from './formRenderer/formModel.ts'
export { initialForm, validateForm, visibleData, emptyForm } from './formRenderer/formModel.ts'
export { focusFirstInvalid } from './formRenderer/keyboard.ts'

const noErrors: FormErrors = {}

export interface FormRendererProps {
  definition: FormDefinition
  value: FormData
  onChange(next: FormData): void
  /** Shows the values; nothing can be changed, no rows added or removed. */
  readOnly?: boolean
  /** Show every shown field's problem (after a validate); otherwise only those of fields left once. */
  showAllErrors?: boolean
  /** The server's message for each field of a refused save, by fieldPath: shown at once, after the field's own. */
  refused?: FormErrors
  /** Fields (by fieldPath) and rows (`r:<section>:<index>`) shown but not to be changed, the rest of the form open. */
  locked?: (path: string) => boolean
  'data-testid'?: string
}

export function FormRenderer({
  definition,
  value,
  onChange,
  readOnly = false,
  showAllErrors = false,
  refused = noErrors,
  locked,
  ...rest
}: FormRendererProps) {
  const t = useT()
  const lang = useLang()
  const uid = useId()
  const [touched, setTouched] = useState<ReadonlySet<string>>(() => new Set())
  const byId = useMemo(() => indicatorMap(definition), [definition])
  const errors = useMemo(() => validateForm(definition, value, lang), [definition, value, lang])

  const messageAt = (path: string) => {
    const e = errors[path]
    if (e && (showAllErrors || touched.has(path))) return renderMessage(e, t)
    const r = refused[path]
    return r ? renderMessage(r, t) : null
  }
  const touch = useCallback((path: string) => setTouched((prev) => (prev.has(path) ? prev : new Set([...prev, path]))), [])

  // The callbacks a field gets never change; they read the latest value and onChange from here.
  const latest = useRef({ value, onChange })
  useLayoutEffect(() => {
    latest.current = { value, onChange }
  })
  const setAt = useCallback((path: string, v: FieldValue) => {
    const { value: now, onChange: emit } = latest.current
    const { section, row, key } = parseFieldPath(path)
    if (section === null) emit({ ...now, values: { ...now.values, [key]: v } })
    else emit({ ...now, rows: { ...now.rows, [section]: (now.rows[section] ?? []).map((x, i) => (i === row ? { ...x, [key]: v } : x)) } })
  }, [])

  // The sub-form row the focus is in. When that row goes (its remove button, the delete-row
  // command) the focus would fall to the page: it goes to the row now in its place instead.
  const root = useRef<HTMLDivElement>(null)
  const focusedRow = useRef<{ section: string; row: number } | null>(null)
  useLayoutEffect(() => {
    const at = focusedRow.current
    const lost = document.activeElement === null || document.activeElement === document.body
    if (!at || !lost || !root.current || (value.rows[at.section]?.length ?? 0) > at.row) return
    focusRowAfterRemoval(root.current, at.section, at.row)
  }, [value.rows])

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.key !== 'Enter' || e.altKey || e.ctrlKey || e.metaKey || e.shiftKey || e.nativeEvent.isComposing) return
    if (!entersNext(e.target)) return
    e.preventDefault()
    focusNextField(e.currentTarget, e.target)
  }

  const setRows = (key: string, rows: readonly FieldValues[]) => onChange({ ...value, rows: { ...value.rows, [key]: rows } })

  const field = (f: Indicator, required: boolean, v: FieldValue | undefined, path: string) => (
    <PathField
      key={path}
      path={path}
      onValue={setAt}
      onTouch={touch}
      indicator={f}
      required={required}
      value={v}
      error={messageAt(path)}
      readOnly={readOnly || locked?.(path) === true}
      id={`${uid}${path.replaceAll(':', '-')}`}
      lang={lang}
    />
  )

  const plainSection = (s: LayoutSection, budget: number) =>
    s.items.slice(0, budget).flatMap((item) => {
      const f = byId.get(item.indicatorId)
      if (!f || !isVisible(f, byId, { values: value.values })) return []
      return [field(f, item.required, value.values[keyOf(f.id)], fieldPath(f.id))]
    })

  const subForm = (s: LayoutSection) => {
    const rows = value.rows[s.key] ?? []
    return (
      <>
        {rows.map((row, r) => (
          <div
            key={r}
            className="form-subform-row"
            role="group"
            aria-label={t('form.row', [r + 1])}
            data-testid={`row-${s.key}-${r}`}
            onFocus={() => (focusedRow.current = { section: s.key, row: r })}
          >
            <div className="form-subform-row-head">
              <span>{t('form.row', [r + 1])}</span>
              {!readOnly && locked?.(rowPath(s.key, r)) !== true && (
                <Button
                  variant="minimal"
                  size="small"
                  icon="trash"
                  aria-label={t('form.removeRow', [r + 1])}
                  title={t('form.removeRow', [r + 1])}
                  onClick={() =>
                    setRows(
                      s.key,
                      rows.filter((_, i) => i !== r),
                    )
                  }
                />
              )}
            </div>
            {s.items.flatMap((item) => {
              const f = byId.get(item.indicatorId)
              if (!f || !isVisible(f, byId, { row, values: value.values })) return []
              return [field(f, item.required, row[keyOf(f.id)], fieldPath(f.id, s.key, r))]
            })}
          </div>
        ))}
        {rows.length === 0 && <p className="bp6-text-muted">{t('form.noRows')}</p>}
        {!readOnly && (
          <Button
            icon="add"
            variant="outlined"
            size="small"
            text={t('form.addRow')}
            onClick={() => setRows(s.key, [...rows, newRow(s, byId)])}
            data-testid={`add-row-${s.key}`}
          />
        )}
      </>
    )
  }

  const sections = definition.layout.sections
  // A sub form counts as one part: it mounts whole once the fields before it have.
  const counts = sections.map((s) => (s.repeating ? 1 : s.items.length))
  const limit = useProgressiveLimit(counts.reduce((a, b) => a + b, 0))
  const budgets = splitBudget(counts, limit)
  const complete = budgets.every((b, i) => b === counts[i])
  return (
    <div
      role="form"
      className={`form-renderer ${readOnly ? 'form-readonly' : ''}`}
      onKeyDown={onKeyDown}
      ref={root}
      onFocus={(e) => {
        if (!e.target.closest('.form-subform-row')) focusedRow.current = null
      }}
      aria-busy={!complete}
      data-complete={complete}
      data-testid={rest['data-testid'] ?? 'form-renderer'}
    >
      {sections.length === 0 && <p className="bp6-text-muted">{t('form.empty')}</p>}
      {sections.map((s, i) => (
        <fieldset key={s.key} className={`form-section ${s.repeating ? 'form-subform' : ''}`} data-testid={`form-section-${s.key}`}>
          {(s.title || sections.length > 1 || s.repeating) && (
            <legend className="form-section-title">
              {s.title || t('form.sectionN', [i + 1])}
              {s.repeating && <span className="form-subform-tag">{t('form.subForm')}</span>}
            </legend>
          )}
          {s.repeating ? (budgets[i] ? subForm(s) : null) : plainSection(s, budgets[i] ?? 0)}
        </fieldset>
      ))}
    </div>
  )
}

/** A field that knows its path: its callbacks are the renderer's, shared by every field. */
const PathField = memo(function PathField({
  path,
  onValue,
  onTouch,
  ...props
}: Omit<FieldProps, 'onChange' | 'onBlur'> & { path: string; onValue(path: string, v: FieldValue): void; onTouch(path: string): void }) {
  return <Field {...props} onChange={(v) => onValue(path, v)} onBlur={() => onTouch(path)} />
})
