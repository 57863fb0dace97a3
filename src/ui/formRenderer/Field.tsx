import { useRef, useState, type KeyboardEvent, type ReactNode } from 'react'
import { Checkbox, InputGroup, Radio, TextArea } from '@blueprintjs/core'
import { HTMLSelect } from '../HTMLSelect.tsx'
import type { Indicator } from '../../../contract/dictionary.ts'
import { useT } from '../../i18n/useT.ts'
import { choiceLabel } from '../../../contract/indicatorRules.ts'
import { renderMessage } from '../../lib/validators.ts'
import { DateControl } from './DateControl.tsx'
import { dateFormatOf, fieldKindOf } from './fieldKind.ts'
import { labelOf, rangeHint, type FieldValue, type Lang } from './formModel.ts'

export interface FieldProps {
  indicator: Indicator
  required: boolean
  value: FieldValue | undefined
  onChange(value: FieldValue): void
  onBlur(): void
  /** The message to show, already worded; null when none. */
  error: string | null
  readOnly: boolean
  /** Unique DOM id of the control. */
  id: string
  lang: Lang
}

const asText = (v: FieldValue | undefined) => (typeof v === 'string' ? v : (v ?? []).join('|'))
const asList = (v: FieldValue | undefined): readonly string[] => (v === undefined ? [] : typeof v === 'string' ? (v === '' ? [] : [v]) : v)

/** One field: label with its required mark, the control of its kind, unit, hints and message. */
export function Field({ indicator: f, required, value, onChange, onBlur, error, readOnly, id, lang }: FieldProps) {
  const t = useT()
  const kind = fieldKindOf(f)
  const label = labelOf(f, lang)
  const labelId = `${id}-label`
  const errorId = `${id}-error`
  const described = error ? errorId : undefined
  const invalid = error !== null
  const group = kind === 'radio' || kind === 'checkbox'
  const range = kind === 'number' ? rangeHint(f) : null
  const format = f.type === 'date' ? dateFormatOf(f) : null
  // A stored answer is the choice's code; the reader sees its label.
  const choices = f.options.map((o) => ({ code: o.code, label: choiceLabel(o, lang) }))

  // What every control tells assistive technology about its state.
  const a11y = { 'aria-required': required, 'aria-invalid': invalid, 'aria-describedby': described }
  let control: ReactNode
  switch (kind) {
    case 'radio':
      control = (
        <div role="radiogroup" aria-labelledby={labelId} {...a11y} className="form-choices">
          {choices.map((o, i) => (
            <Radio
              key={o.code}
              id={i === 0 ? id : undefined}
              name={id}
              label={o.label}
              value={o.code}
              checked={value === o.code}
              disabled={readOnly}
              onChange={() => onChange(o.code)}
              onBlur={onBlur}
              inline
            />
          ))}
        </div>
      )
      break
    case 'checkbox':
      control = (
        <CheckboxGroup
          id={id}
          labelId={labelId}
          options={choices}
          value={asList(value)}
          required={required}
          invalid={invalid}
          describedBy={described}
          readOnly={readOnly}
          onChange={onChange}
          onBlur={onBlur}
        />
      )
      break
    case 'select':
      control = (
        <HTMLSelect
          id={id}
          value={asText(value)}
          disabled={readOnly}
          {...a11y}
          onChange={(e) => onChange(e.currentTarget.value)}
          onBlur={onBlur}
        >
          <option value="">{t('form.choose')}</option>
          {choices.map((o) => (
            <option key={o.code} value={o.code}>
              {o.label}
            </option>
          ))}
        </HTMLSelect>
      )
      break
    case 'multiSelect':
      control = (
        <select
          id={id}
          multiple
          className="form-multi-select"
          size={Math.min(Math.max(f.options.length, 2), 6)}
          value={[...asList(value)]}
          disabled={readOnly}
          {...a11y}
          onChange={(e) => onChange([...e.currentTarget.selectedOptions].map((o) => o.value))}
          onBlur={onBlur}
        >
          {choices.map((o) => (
            <option key={o.code} value={o.code}>
              {o.label}
            </option>
          ))}
        </select>
      )
      break
    case 'textarea':
      control = (
        <TextArea
          id={id}
          value={asText(value)}
          readOnly={readOnly}
          autoResize
          fill
          {...a11y}
          intent={invalid ? 'danger' : 'none'}
          onChange={(e) => onChange(e.currentTarget.value)}
          onBlur={onBlur}
        />
      )
      break
    case 'input':
    case 'number':
      control = (
        <InputGroup
          id={id}
          value={asText(value)}
          readOnly={readOnly}
          // A text input keeps what was typed, so 'abc' is refused with its message rather than dropped.
          inputMode={kind === 'number' ? (f.dataType === 'integer' ? 'numeric' : 'decimal') : undefined}
          {...a11y}
          intent={invalid ? 'danger' : 'none'}
          onChange={(e) => onChange(e.currentTarget.value)}
          onBlur={onBlur}
        />
      )
      break
    case 'date':
    case 'time':
    case 'dateTime':
      control = (
        <DateControl
          id={id}
          format={format ?? dateFormatOf(f)}
          value={asText(value)}
          readOnly={readOnly}
          a11y={a11y}
          onChange={onChange}
          onBlur={onBlur}
        />
      )
      break
  }

  return (
    <div
      className={`form-field form-kind-${kind}`}
      data-field
      data-kind={kind}
      data-code={f.code}
      data-invalid={invalid}
      data-testid={`field-${f.code}`}
    >
      {group ? (
        <span className="form-field-label" id={labelId}>
          {required && <RequiredMark />}
          {label}
        </span>
      ) : (
        <label className="form-field-label" id={labelId} htmlFor={id}>
          {required && <RequiredMark />}
          {label}
        </label>
      )}
      <div className="form-field-body">
        <div className="form-field-control">
          {control}
          {f.unit && <span className="form-unit">{f.unit}</span>}
        </div>
        {(range || format || f.comment) && (
          <div className="form-field-hint">
            {range && <span>{renderMessage(range, t)}</span>}
            {format && <span>{t('form.hint.format', [format])}</span>}
            {f.comment && <span>{f.comment}</span>}
          </div>
        )}
        {error && (
          <div className="form-field-error" id={errorId} role="alert">
            {error}
          </div>
        )}
      </div>
    </div>
  )
}

function RequiredMark() {
  const t = useT()
  return (
    <span className="form-required" title={t('form.required')}>
      *
    </span>
  )
}

/**
 * Checkboxes as one stop in the Tab order (a roving tab index): arrows move between the options,
 * Space ticks, Tab leaves the group.
 */
function CheckboxGroup(props: {
  id: string
  labelId: string
  options: readonly { code: string; label: string }[]
  value: readonly string[]
  required: boolean
  invalid: boolean
  describedBy: string | undefined
  readOnly: boolean
  onChange(v: readonly string[]): void
  onBlur(): void
}) {
  const { id, labelId, options, value, required, invalid, describedBy, readOnly, onChange, onBlur } = props
  const first = Math.max(
    0,
    options.findIndex((o) => value.includes(o.code)),
  )
  const [active, setActive] = useState(first)
  const boxes = useRef<(HTMLInputElement | null)[]>([])
  const current = Math.min(active, options.length - 1)

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const step = e.key === 'ArrowDown' || e.key === 'ArrowRight' ? 1 : e.key === 'ArrowUp' || e.key === 'ArrowLeft' ? -1 : 0
    if (step === 0 || e.altKey || e.ctrlKey || e.metaKey || options.length === 0) return
    e.preventDefault()
    const next = (current + step + options.length) % options.length
    setActive(next)
    boxes.current[next]?.focus()
  }
  const toggle = (o: string, on: boolean) => {
    const set = new Set(on ? [...value, o] : value.filter((x) => x !== o))
    // Answers keep the order of the options.
    onChange(options.map((x) => x.code).filter((x) => set.has(x)))
  }

  return (
    <div
      role="group"
      aria-labelledby={labelId}
      aria-required={required}
      aria-invalid={invalid}
      aria-describedby={describedBy}
      className="form-choices"
      onKeyDown={onKeyDown}
    >
      {options.map((o, i) => (
        <Checkbox
          key={o.code}
          id={i === 0 ? id : undefined}
          label={o.label}
          checked={value.includes(o.code)}
          disabled={readOnly}
          tabIndex={i === current ? 0 : -1}
          data-tabstop={i === current}
          inputRef={(el) => {
            boxes.current[i] = el
          }}
          onFocus={() => setActive(i)}
          onChange={(e) => toggle(o.code, e.currentTarget.checked)}
          onBlur={onBlur}
          inline
        />
      ))}
    </div>
  )
}
