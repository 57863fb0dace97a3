/**
 * The one form renderer (issue 4 item 6): draws a template version (layout + indicators) as a
 * form, for the CRF preview now and for data entry later. Controlled: the caller holds the value
 * (FormData) and gets every change through onChange. The rules live in formRenderer/formModel.ts
 * (pure, tested); the kinds in formRenderer/fieldKind.ts.
 *
 * Keyboard: Tab goes field to field (a checkbox group is one stop, arrows move inside it, as they
 * do in a radio group); Enter in a field goes to the next field and never submits anything.
 */
import { useId, useMemo, useState, type KeyboardEvent } from 'react'
import { Button } from '@blueprintjs/core'
import type { LayoutSection } from '../../contract/crf.ts'
import type { Indicator } from '../../contract/dictionary.ts'
import { useLang, useT } from '../i18n/useT.ts'
import { renderMessage } from '../lib/validators.ts'
import { Field } from './formRenderer/Field.tsx'
import {
  fieldPath,
  indicatorMap,
  isVisible,
  keyOf,
  newRow,
  validateForm,
  type FieldValue,
  type FieldValues,
  type FormData,
  type FormDefinition,
} from './formRenderer/formModel.ts'
import { entersNext, focusNextField } from './formRenderer/keyboard.ts'

export type { FormData, FormDefinition, FieldValue, FieldValues } from './formRenderer/formModel.ts'
export { initialForm, validateForm, visibleData, emptyForm } from './formRenderer/formModel.ts'
export { focusFirstInvalid } from './formRenderer/keyboard.ts'

export interface FormRendererProps {
  definition: FormDefinition
  value: FormData
  onChange(next: FormData): void
  /** Shows the values; nothing can be changed, no rows added or removed. */
  readOnly?: boolean
  /** Show every shown field's problem (after a validate); otherwise only those of fields left once. */
  showAllErrors?: boolean
  'data-testid'?: string
}

export function FormRenderer({ definition, value, onChange, readOnly = false, showAllErrors = false, ...rest }: FormRendererProps) {
  const t = useT()
  const lang = useLang()
  const uid = useId()
  const [touched, setTouched] = useState<ReadonlySet<string>>(() => new Set())
  const byId = useMemo(() => indicatorMap(definition), [definition])
  const errors = useMemo(() => validateForm(definition, value, lang), [definition, value, lang])

  const messageAt = (path: string) => {
    const e = errors[path]
    return e && (showAllErrors || touched.has(path)) ? renderMessage(e, t) : null
  }
  const touch = (path: string) => {
    if (!touched.has(path)) setTouched(new Set([...touched, path]))
  }

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.key !== 'Enter' || e.altKey || e.ctrlKey || e.metaKey || e.shiftKey || e.nativeEvent.isComposing) return
    if (!entersNext(e.target)) return
    e.preventDefault()
    focusNextField(e.currentTarget, e.target)
  }

  const setValue = (id: number, v: FieldValue) => onChange({ ...value, values: { ...value.values, [keyOf(id)]: v } })
  const setRows = (key: string, rows: readonly FieldValues[]) => onChange({ ...value, rows: { ...value.rows, [key]: rows } })

  const field = (f: Indicator, required: boolean, v: FieldValue | undefined, path: string, set: (v: FieldValue) => void) => (
    <Field
      key={path}
      indicator={f}
      required={required}
      value={v}
      onChange={set}
      onBlur={() => touch(path)}
      error={messageAt(path)}
      readOnly={readOnly}
      id={`${uid}${path.replaceAll(':', '-')}`}
      lang={lang}
    />
  )

  const plainSection = (s: LayoutSection) =>
    s.items.flatMap((item) => {
      const f = byId.get(item.indicatorId)
      if (!f || !isVisible(f, byId, { values: value.values })) return []
      return [field(f, item.required, value.values[keyOf(f.id)], fieldPath(f.id), (v) => setValue(f.id, v))]
    })

  const subForm = (s: LayoutSection) => {
    const rows = value.rows[s.key] ?? []
    return (
      <>
        {rows.map((row, r) => (
          <div key={r} className="form-subform-row" role="group" aria-label={t('form.row', [r + 1])} data-testid={`row-${s.key}-${r}`}>
            <div className="form-subform-row-head">
              <span>{t('form.row', [r + 1])}</span>
              {!readOnly && (
                <Button
                  variant="minimal"
                  size="small"
                  icon="trash"
                  aria-label={t('form.removeRow', [r + 1])}
                  title={t('form.removeRow', [r + 1])}
                  onClick={() => setRows(s.key, rows.filter((_, i) => i !== r))}
                />
              )}
            </div>
            {s.items.flatMap((item) => {
              const f = byId.get(item.indicatorId)
              if (!f || !isVisible(f, byId, { row, values: value.values })) return []
              const set = (v: FieldValue) => setRows(s.key, rows.map((x, i) => (i === r ? { ...x, [keyOf(f.id)]: v } : x)))
              return [field(f, item.required, row[keyOf(f.id)], fieldPath(f.id, s.key, r), set)]
            })}
          </div>
        ))}
        {rows.length === 0 && <p className="bp6-text-muted">{t('form.noRows')}</p>}
        {!readOnly && (
          <Button icon="add" variant="outlined" size="small" text={t('form.addRow')} onClick={() => setRows(s.key, [...rows, newRow(s, byId)])} data-testid={`add-row-${s.key}`} />
        )}
      </>
    )
  }

  const sections = definition.layout.sections
  return (
    <div role="form" className={`form-renderer ${readOnly ? 'form-readonly' : ''}`} onKeyDown={onKeyDown} data-testid={rest['data-testid'] ?? 'form-renderer'}>
      {sections.length === 0 && <p className="bp6-text-muted">{t('form.empty')}</p>}
      {sections.map((s, i) => (
        <fieldset key={s.key} className={`form-section ${s.repeating ? 'form-subform' : ''}`} data-testid={`form-section-${s.key}`}>
          {(s.title || sections.length > 1 || s.repeating) && (
            <legend className="form-section-title">
              {s.title || t('form.sectionN', [i + 1])}
              {s.repeating && <span className="form-subform-tag">{t('form.subForm')}</span>}
            </legend>
          )}
          {s.repeating ? subForm(s) : plainSection(s)}
        </fieldset>
      ))}
    </div>
  )
}
