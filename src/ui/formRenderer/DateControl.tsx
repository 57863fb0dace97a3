import { useRef, type KeyboardEvent } from 'react'
import { Button, InputGroup } from '@blueprintjs/core'
import type { DateFormat } from '../../../contract/dictionary.ts'
import { dateSpelling } from '../../../contract/dateSpelling.ts'
import { halfWidth } from '../../../contract/halfWidth.ts'
import { useT } from '../../i18n/useT.ts'
import { formatTime } from '../../lib/time.ts'
import { formKeys, isKey } from '../keyReference.ts'
import { fromPickerValue, pickerOf, timePatternOf, toPickerValue } from './fieldKind.ts'

export interface DateControlProps {
  id: string
  format: DateFormat
  value: string
  readOnly: boolean
  /** What the control tells assistive technology; its aria-invalid also draws the danger intent. */
  a11y: { 'aria-required': boolean; 'aria-invalid': boolean; 'aria-describedby': string | undefined }
  onChange(value: string): void
  onBlur?(): void
}

/**
 * A date, time or date-time field: text in the field's format, the same at every center and in
 * every browser, read as people spell it (contract/dateSpelling.ts: '2024/6/9' and '20240609'
 * become 2024-06-09; '06/09/2024' is refused, not guessed). Beside it the browser's own picker
 * and today / now, both also on keys (Alt+↓, Ctrl+;), as the buttons are not Tab stops: Tab goes
 * from field to field.
 */
export function DateControl({ id, format, value, readOnly, a11y, onChange, onBlur }: DateControlProps) {
  const t = useT()
  const picker = pickerOf(format)
  const native = useRef<HTMLInputElement>(null)
  const spelled = (text: string) => dateSpelling(halfWidth(text).trim(), format)
  const withTime = format.includes('HH')
  const enterNow = () => onChange(formatTime(new Date(), timePatternOf(format)) ?? '')
  const openPicker = () => native.current?.showPicker()

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (readOnly) return
    if (isKey(formKeys.now, e)) enterNow()
    else if (picker && isKey(formKeys.picker, e)) openPicker()
    else return
    e.preventDefault()
  }

  const tools = readOnly ? undefined : (
    <span className="form-date-tools">
      {picker && (
        <Button
          variant="minimal"
          size="small"
          icon={picker.type === 'time' ? 'time' : 'calendar'}
          tabIndex={-1}
          aria-label={t(picker.type === 'time' ? 'form.pickTime' : 'form.pickDate')}
          title={t(picker.type === 'time' ? 'form.pickTime' : 'form.pickDate')}
          onClick={openPicker}
        />
      )}
      <Button variant="minimal" size="small" tabIndex={-1} text={t(withTime ? 'form.now' : 'form.today')} onClick={enterNow} />
    </span>
  )

  return (
    <span className="form-date">
      <InputGroup
        id={id}
        value={value}
        placeholder={format}
        readOnly={readOnly}
        autoComplete="off"
        aria-keyshortcuts={readOnly ? undefined : picker ? 'Control+; Alt+ArrowDown' : 'Control+;'}
        {...a11y}
        intent={a11y['aria-invalid'] ? 'danger' : 'none'}
        rightElement={tools}
        onKeyDown={onKeyDown}
        onChange={(e) => {
          const typed = e.currentTarget.value
          // A run of digits that makes a whole value is cut at once (nothing can follow it); other spellings on leaving.
          onChange(/^\d+$/.test(halfWidth(typed)) ? spelled(typed) : typed)
        }}
        onBlur={() => {
          const s = spelled(value)
          if (!readOnly && s !== value) onChange(s)
          onBlur?.()
        }}
      />
      {picker && !readOnly && (
        <input
          ref={native}
          className="form-date-picker"
          type={picker.type}
          step={picker.seconds ? 1 : undefined}
          tabIndex={-1}
          aria-hidden
          value={toPickerValue(value, format)}
          onChange={(e) => onChange(fromPickerValue(e.currentTarget.value, format))}
        />
      )}
    </span>
  )
}
