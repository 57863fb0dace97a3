import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent, type ReactNode } from 'react'
import { Button, Callout, Checkbox, FormGroup, H3, InputGroup, Switch, Tag, TextArea } from '@blueprintjs/core'
import { HTMLSelect } from '../../ui/HTMLSelect.tsx'
import {
  dataTypes,
  dateFormats,
  indexCategories,
  indicatorTypes,
  maxOptions,
  optionLength,
  type Choice,
  type DataType,
  type DateFormat,
  type DisplayForm,
  type IndexCategory,
  type IndicatorType,
} from '../../../contract/dictionary.ts'
import { choiceLabel, displayFor } from '../../../contract/indicatorRules.ts'
import { useLang, useT } from '../../i18n/useT.ts'
import { useCommandHost } from '../../ui/commandHost.tsx'
import { CommandButton } from '../../ui/CommandButton.tsx'
import { listDiseases } from './api/listDiseases.ts'
import { listIndicators } from './api/listIndicators.ts'
import {
  blankChoice,
  checkForm,
  defaultChoices,
  isBlankChoice,
  isChoice,
  isNumeric,
  messageText,
  withType,
  type DependentChoice,
  type FormErrors,
  type FormField,
  type IndicatorForm,
} from './indicatorForm.ts'
import { useApi } from '../../api/query.ts'
import { useHolds } from '../../state/session.ts'
import { bilingual } from '../../../contract/bilingual.ts'
import { BusyButton } from '../../ui/BusyButton.tsx'

/**
 * One form for a new indicator (createFields) and an existing one (fields): every attribute of
 * SPEC §3, the display forms the type allows, and the contract's rules checked as one types
 * (after the first save attempt) with the server's words. Save runs `dictionary.saveIndicator`;
 * what the server still refuses (a code that exists, a frozen type) shows above the form.
 */
export function IndicatorEditor({ id, initial, inUse = false }: { id?: number; initial: IndicatorForm; inUse?: boolean }) {
  const t = useT()
  const lang = useLang()
  const host = useCommandHost()
  const [form, setForm] = useState(initial)
  const [tried, setTried] = useState(false)
  const [serverError, setServerError] = useState<string | null>(null)
  const [saving, setSaving] = useState(false)
  // The save command needs the edit grant; a reader sees the form without a save button.
  const canSave = useHolds('dictionary.edit')
  const diseases = useApi(['diseases'], (signal) => listDiseases({ signal }))
  const checked = useMemo(() => checkForm(form), [form])
  const errors: FormErrors = tried ? checked.errors : {}
  // Two forms can be open at once (a new indicator beside an existing one): ids are per form.
  const uid = useId().replace(/[^A-Za-z0-9_-]/g, '')
  const idOf = (name: string) => `indicator${uid}-${name}`
  const optionRefs = useRef<(HTMLInputElement | null)[]>([])
  const focusOption = useRef<number | null>(null)

  useEffect(() => {
    if (focusOption.current !== null) {
      optionRefs.current[focusOption.current]?.focus()
      focusOption.current = null
    }
  })

  const set = <K extends keyof IndicatorForm>(key: K, value: IndicatorForm[K]) => setForm((f) => ({ ...f, [key]: value }))

  const save = async () => {
    setTried(true)
    setServerError(null)
    if (!checked.input) {
      const first = Object.keys(checked.errors)[0]
      document.getElementById(idOf(first ?? ''))?.focus()
      return
    }
    setSaving(true)
    const r = await host.run('dictionary.saveIndicator', 'button', { id, input: checked.input })
    setSaving(false)
    if (!r.ok) setServerError(r.error instanceof Error ? r.error.message : t('message.saveFailed'))
  }

  const field = (
    name: FormField,
    label: ReactNode,
    control: ReactNode,
    options: { required?: boolean; helper?: string; wide?: boolean } = {},
  ) => {
    const messages = errors[name]
    return (
      <FormGroup
        className={options.wide ? 'indicator-wide' : undefined}
        label={label}
        labelFor={idOf(name)}
        labelInfo={options.required ? '*' : undefined}
        intent={messages ? 'danger' : 'none'}
        helperText={
          messages ? <span data-testid={`error-${name}`}>{messages.map((m) => messageText(t, m)).join('; ')}</span> : options.helper
        }
      >
        {control}
      </FormGroup>
    )
  }

  const setOption = (i: number, part: keyof Choice, value: string) =>
    set(
      'options',
      form.options.map((o, j) => (j === i ? { ...o, [part]: value } : o)),
    )
  const addOption = (after: number) => {
    if (form.options.length >= maxOptions) return
    const next = [...form.options]
    next.splice(after + 1, 0, blankChoice(form.options))
    focusOption.current = after + 1
    set('options', next)
  }
  const removeOption = (i: number) => {
    const next = form.options.filter((_, j) => j !== i)
    focusOption.current = Math.max(0, i - 1)
    set('options', next.length ? next : [blankChoice([])])
  }
  const moveOption = (i: number, by: -1 | 1) => {
    const j = i + by
    if (j < 0 || j >= form.options.length) return
    const next = [...form.options]
    ;[next[i], next[j]] = [next[j] as Choice, next[i] as Choice]
    focusOption.current = j
    set('options', next)
  }

  const choice = isChoice(form.type)
  const numeric = isNumeric(form)
  const options = form.options.filter((o) => !isBlankChoice(o))
  const title = id === undefined ? t('route.createFields') : `${t('route.fields')} · ${initial.code}`

  return (
    <form
      className="indicator-form"
      data-testid="indicator-form"
      noValidate
      onSubmit={(e) => {
        e.preventDefault()
        void save()
      }}
    >
      <div className="dict-header">
        <H3>{title}</H3>
        <div className="dict-header-actions">
          {id !== undefined && inUse && (
            <Tag intent="warning" minimal icon="lock">
              {t('indicator.inUse')}
            </Tag>
          )}
          {id !== undefined && (
            <CommandButton id="dictionary.deleteIndicator" args={{ id }} icon="trash" intent="danger" variant="minimal" />
          )}
          {canSave && (
            <BusyButton
              type="submit"
              intent="primary"
              icon="floppy-disk"
              text={t('common.save')}
              loading={saving}
              data-testid="indicator-save"
            />
          )}
        </div>
      </div>
      {serverError && (
        <Callout intent="danger" className="form-error" data-testid="indicator-server-error">
          {serverError}
        </Callout>
      )}
      {tried && !checked.input && (
        <Callout intent="warning" className="form-error" data-testid="indicator-invalid">
          {t('indicator.fixErrors')}
        </Callout>
      )}
      {!canSave && (
        <Callout icon="eye-open" className="form-error" data-testid="indicator-read-only">
          {t('indicator.readOnly')}
        </Callout>
      )}

      {/* A reader of the dictionary sees the form as it is, every control disabled at once. */}
      <fieldset className="indicator-sections" disabled={!canSave}>
        <fieldset className="indicator-section">
          <legend>{t('indicator.sections.basic')}</legend>
          <div className="indicator-grid">
            {field(
              'code',
              t('indicator.field.code'),
              <InputGroup id={idOf('code')} name="code" autoFocus value={form.code} maxLength={64} onValueChange={(v) => set('code', v)} />,
              { required: true, helper: t('indicator.codeHint') },
            )}
            {field(
              'nameZh',
              t('indicator.field.nameZh'),
              <InputGroup id={idOf('nameZh')} name="nameZh" value={form.nameZh} maxLength={100} onValueChange={(v) => set('nameZh', v)} />,
              {
                required: true,
              },
            )}
            {field(
              'nameEn',
              t('indicator.field.nameEn'),
              <InputGroup id={idOf('nameEn')} name="nameEn" value={form.nameEn} maxLength={200} onValueChange={(v) => set('nameEn', v)} />,
            )}
            {field(
              'diseaseId',
              t('indicator.field.diseaseId'),
              <HTMLSelect
                id={idOf('diseaseId')}
                name="diseaseId"
                value={form.diseaseId === null ? '' : String(form.diseaseId)}
                onChange={(e) => set('diseaseId', e.currentTarget.value ? Number(e.currentTarget.value) : null)}
                options={[
                  { value: '', label: t('indicator.noDisease') },
                  ...(diseases.data ?? []).map((d) => ({ value: String(d.id), label: bilingual(d.name, d.nameEn, lang) })),
                ]}
              />,
            )}
            {field(
              'indexClass',
              t('indicator.field.indexClass'),
              <InputGroup
                id={idOf('indexClass')}
                name="indexClass"
                value={form.indexClass}
                maxLength={60}
                onValueChange={(v) => set('indexClass', v)}
              />,
            )}
            {field(
              'category',
              t('indicator.field.category'),
              <HTMLSelect
                id={idOf('category')}
                name="category"
                value={form.category}
                onChange={(e) => set('category', e.currentTarget.value as IndexCategory)}
                options={indexCategories.map((c) => ({ value: c, label: t(`indicator.categories.${c}`) }))}
              />,
            )}
            {field(
              'status',
              t('indicator.field.status'),
              <Switch
                id={idOf('status')}
                name="status"
                checked={form.status === 1}
                label={t(form.status === 1 ? 'indicator.statuses.1' : 'indicator.statuses.0')}
                onChange={(e) => set('status', e.currentTarget.checked ? 1 : 0)}
              />,
            )}
            {field(
              'comment',
              t('indicator.field.comment'),
              <TextArea
                id={idOf('comment')}
                name="comment"
                fill
                value={form.comment}
                maxLength={1000}
                rows={2}
                onChange={(e) => set('comment', e.currentTarget.value)}
              />,
              { wide: true },
            )}
          </div>
        </fieldset>

        <fieldset className="indicator-section">
          <legend>{t('indicator.sections.value')}</legend>
          <div className="indicator-grid">
            {field(
              'type',
              t('indicator.field.type'),
              <HTMLSelect
                id={idOf('type')}
                name="type"
                value={form.type}
                disabled={inUse}
                onChange={(e) => {
                  // Read the value now: the updater runs after React has released the event.
                  const type = e.currentTarget.value as IndicatorType
                  setForm((f) => withType(f, type))
                }}
                options={indicatorTypes.map((c) => ({ value: c, label: t(`indicator.types.${c}`) }))}
              />,
              { required: true, helper: inUse ? t('indicator.typeFrozen') : undefined },
            )}
            {field(
              'display',
              t('indicator.field.display'),
              <HTMLSelect
                id={idOf('display')}
                name="display"
                value={form.display}
                onChange={(e) => set('display', e.currentTarget.value as DisplayForm)}
                options={(displayFor[form.type] as readonly DisplayForm[]).map((c) => ({ value: c, label: t(`indicator.displays.${c}`) }))}
              />,
            )}
            {form.type === 'blank' &&
              field(
                'dataType',
                t('indicator.field.dataType'),
                <HTMLSelect
                  id={idOf('dataType')}
                  name="dataType"
                  value={form.dataType}
                  disabled={inUse}
                  onChange={(e) => set('dataType', e.currentTarget.value as DataType)}
                  options={dataTypes.map((c) => ({ value: c, label: t(`indicator.dataTypes.${c}`) }))}
                />,
              )}
            {form.type === 'blank' &&
              field(
                'unit',
                t('indicator.field.unit'),
                <InputGroup id={idOf('unit')} name="unit" value={form.unit} maxLength={30} onValueChange={(v) => set('unit', v)} />,
              )}
            {numeric &&
              field(
                'minimum',
                t('indicator.field.minimum'),
                <InputGroup
                  id={idOf('minimum')}
                  name="minimum"
                  inputMode="decimal"
                  value={form.minimum}
                  onValueChange={(v) => set('minimum', v)}
                />,
              )}
            {numeric &&
              field(
                'maximum',
                t('indicator.field.maximum'),
                <InputGroup
                  id={idOf('maximum')}
                  name="maximum"
                  inputMode="decimal"
                  value={form.maximum}
                  onValueChange={(v) => set('maximum', v)}
                />,
              )}
            {form.type === 'date' &&
              field(
                'dateFormat',
                t('indicator.field.dateFormat'),
                <HTMLSelect
                  id={idOf('dateFormat')}
                  name="dateFormat"
                  value={form.dateFormat}
                  onChange={(e) => set('dateFormat', e.currentTarget.value as DateFormat | '')}
                  options={[{ value: '', label: t('indicator.chooseDateFormat') }, ...dateFormats.map((c) => ({ value: c, label: c }))]}
                />,
                { required: true },
              )}
            {choice &&
              field(
                'options',
                t('indicator.field.options'),
                <div className="option-list" id={idOf('options')} data-testid="option-list">
                  {form.options.map((o, i) => {
                    // Enter adds the next row, Alt+↑/↓ moves this one, Backspace in an empty row removes it.
                    const keys = (e: KeyboardEvent<HTMLInputElement>) => {
                      if (e.key === 'Enter' && !e.ctrlKey && !e.metaKey) {
                        e.preventDefault()
                        addOption(i)
                      } else if (e.altKey && e.key === 'ArrowUp') {
                        e.preventDefault()
                        moveOption(i, -1)
                      } else if (e.altKey && e.key === 'ArrowDown') {
                        e.preventDefault()
                        moveOption(i, 1)
                      } else if (e.key === 'Backspace' && e.currentTarget.value === '' && isBlankChoice(o) && form.options.length > 1) {
                        e.preventDefault()
                        removeOption(i)
                      }
                    }
                    return (
                      <div className="option-row" key={i}>
                        <span className="option-index">{i + 1}</span>
                        <InputGroup
                          className="option-code"
                          value={o.code}
                          maxLength={32}
                          aria-label={`${t('indicator.optionCode')} ${i + 1}`}
                          data-testid={`option-${i}-code`}
                          onValueChange={(v) => setOption(i, 'code', v)}
                          onKeyDown={keys}
                        />
                        <InputGroup
                          inputRef={(el) => {
                            optionRefs.current[i] = el
                          }}
                          value={o.labelZh}
                          maxLength={optionLength.max + 10}
                          aria-label={`${t('indicator.optionLabelZh')} ${i + 1}`}
                          data-testid={`option-${i}`}
                          onValueChange={(v) => setOption(i, 'labelZh', v)}
                          onKeyDown={keys}
                        />
                        <InputGroup
                          value={o.labelEn}
                          maxLength={optionLength.max + 10}
                          aria-label={`${t('indicator.optionLabelEn')} ${i + 1}`}
                          data-testid={`option-${i}-en`}
                          onValueChange={(v) => setOption(i, 'labelEn', v)}
                          onKeyDown={keys}
                        />
                        <Button
                          variant="minimal"
                          size="small"
                          icon="arrow-up"
                          tabIndex={-1}
                          aria-label={t('indicator.optionUp')}
                          title={t('indicator.optionUp')}
                          disabled={i === 0}
                          onClick={() => moveOption(i, -1)}
                        />
                        <Button
                          variant="minimal"
                          size="small"
                          icon="arrow-down"
                          tabIndex={-1}
                          aria-label={t('indicator.optionDown')}
                          title={t('indicator.optionDown')}
                          disabled={i === form.options.length - 1}
                          onClick={() => moveOption(i, 1)}
                        />
                        <Button
                          variant="minimal"
                          size="small"
                          icon="cross"
                          tabIndex={-1}
                          aria-label={t('indicator.optionRemove')}
                          title={t('indicator.optionRemove')}
                          onClick={() => removeOption(i)}
                        />
                      </div>
                    )
                  })}
                  <Button
                    variant="minimal"
                    size="small"
                    icon="plus"
                    text={t('indicator.optionAdd')}
                    data-testid="option-add"
                    onClick={() => addOption(form.options.length - 1)}
                  />
                </div>,
                { required: true, wide: true, helper: t('indicator.optionHint', [optionLength.min, optionLength.max]) },
              )}
            {field(
              'defaultValue',
              t('indicator.field.defaultValue'),
              <DefaultValueInput id={idOf('defaultValue')} form={form} options={options} onChange={(v) => set('defaultValue', v)} />,
              {
                helper: form.type === 'date' && form.dateFormat ? form.dateFormat : undefined,
              },
            )}
          </div>
        </fieldset>

        <fieldset className="indicator-section">
          <legend>{t('indicator.sections.dependency')}</legend>
          <div className="indicator-grid">
            {field(
              'dependentFieldId',
              t('indicator.field.dependentFieldId'),
              <DependentPicker
                inputId={idOf('dependentFieldId')}
                selfId={id}
                value={form.dependent}
                onChange={(d) => setForm((f) => ({ ...f, dependent: d, dependentValue: '' }))}
              />,
              {
                helper: t('indicator.dependentHint'),
              },
            )}
            {form.dependent &&
              field(
                'dependentValue',
                t('indicator.field.dependentValue'),
                form.dependent.options.length > 0 ? (
                  <HTMLSelect
                    id={idOf('dependentValue')}
                    name="dependentValue"
                    value={form.dependentValue}
                    onChange={(e) => set('dependentValue', e.currentTarget.value)}
                    options={[
                      { value: '', label: t('indicator.chooseValue') },
                      ...form.dependent.options.map((o) => ({ value: o.code, label: `${o.code} · ${choiceLabel(o, lang)}` })),
                    ]}
                  />
                ) : (
                  <InputGroup
                    id={idOf('dependentValue')}
                    name="dependentValue"
                    value={form.dependentValue}
                    maxLength={200}
                    onValueChange={(v) => set('dependentValue', v)}
                  />
                ),
                { required: true },
              )}
          </div>
        </fieldset>
      </fieldset>
    </form>
  )
}

function DefaultValueInput({
  id,
  form,
  options,
  onChange,
}: {
  id: string
  form: IndicatorForm
  options: readonly Choice[]
  onChange: (v: string) => void
}) {
  const t = useT()
  const lang = useLang()
  // A code typed twice is refused by the rules; the picker shows it once meanwhile.
  const unique = options.filter((o, i) => options.findIndex((x) => x.code === o.code) === i)
  if (form.type === 'single')
    return (
      <HTMLSelect
        id={id}
        name="defaultValue"
        value={form.defaultValue}
        onChange={(e) => onChange(e.currentTarget.value)}
        options={[
          { value: '', label: t('indicator.noDefault') },
          ...unique.map((o) => ({ value: o.code, label: `${o.code} · ${choiceLabel(o, lang)}` })),
        ]}
      />
    )
  if (form.type === 'multiple') {
    const chosen = defaultChoices(form.defaultValue)
    return (
      <div id={id} className="default-choices">
        {options.length === 0 && <span className="bp6-text-muted">{t('indicator.noDefault')}</span>}
        {unique.map((o) => (
          <Checkbox
            key={o.code}
            inline
            label={`${o.code} · ${choiceLabel(o, lang)}`}
            checked={chosen.includes(o.code)}
            onChange={(e) => {
              const next = e.currentTarget.checked ? [...chosen, o.code] : chosen.filter((x) => x !== o.code)
              onChange(
                unique
                  .map((x) => x.code)
                  .filter((x) => next.includes(x))
                  .join('|'),
              )
            }}
          />
        ))}
      </div>
    )
  }
  return (
    <InputGroup
      id={id}
      name="defaultValue"
      value={form.defaultValue}
      maxLength={500}
      placeholder={form.type === 'date' ? form.dateFormat || undefined : undefined}
      onValueChange={onChange}
    />
  )
}

/** Picks the dependent field by code (a prefix search on the server; the browser's list to choose). */
function DependentPicker({
  inputId,
  selfId,
  value,
  onChange,
}: {
  inputId: string
  selfId?: number
  value: DependentChoice | null
  onChange: (d: DependentChoice | null) => void
}) {
  const t = useT()
  const lang = useLang()
  const [text, setText] = useState(value?.code ?? '')
  const [found, setFound] = useState<DependentChoice[]>([])
  useEffect(() => {
    if (value) setText(value.code)
  }, [value])
  useEffect(() => {
    const q = text.trim()
    if (q === '' || q === value?.code) return
    const controller = new AbortController()
    const timer = setTimeout(() => {
      listIndicators({ q, limit: 20, sort: 'code', order: 'asc' }, { signal: controller.signal, toast: false }).then(
        (page) =>
          setFound(
            page.rows
              .filter((r) => r.id !== selfId)
              .map((r) => ({ id: r.id, code: r.code, nameZh: r.nameZh, nameEn: r.nameEn, options: r.options })),
          ),
        () => undefined,
      )
    }, 200)
    return () => {
      clearTimeout(timer)
      controller.abort()
    }
  }, [text, selfId, value])

  const pick = (code: string) => {
    const d = found.find((x) => x.code === code)
    if (d) onChange(d)
  }
  const name = (d: DependentChoice) => bilingual(d.nameZh, d.nameEn, lang)
  return (
    <div className="dependent-picker">
      <InputGroup
        id={inputId}
        name="dependentFieldId"
        list={`${inputId}-list`}
        leftIcon="search"
        placeholder={t('indicator.dependentSearch')}
        value={text}
        data-testid="dependent-search"
        onValueChange={(v) => {
          setText(v)
          if (value && v !== value.code) onChange(null)
          pick(v.trim())
        }}
        rightElement={
          value ? (
            <Button
              variant="minimal"
              icon="cross"
              aria-label={t('indicator.dependentClear')}
              title={t('indicator.dependentClear')}
              onClick={() => onChange(null)}
            />
          ) : undefined
        }
      />
      <datalist id={`${inputId}-list`}>
        {found.map((d) => (
          <option key={d.id} value={d.code}>
            {name(d)}
          </option>
        ))}
      </datalist>
      {value && (
        <span className="dependent-chosen" data-testid="dependent-chosen">
          {value.code} · {name(value)}
        </span>
      )}
    </div>
  )
}
