import { FormGroup, InputGroup, Radio, RadioGroup } from '@blueprintjs/core'
import { HTMLSelect } from '../../ui/HTMLSelect.tsx'
import type { ReactNode } from 'react'
import { blindedSets, groupTypes, projectLimits, projectTypes, randomMethods, testStages } from '../../../contract/projects.ts'
import { useApi } from '../../api/query.ts'
import { useLang, useT } from '../../i18n/useT.ts'
import { bilingual } from '../../../contract/bilingual.ts'
import type { BaseForm } from '../../state/projectDraft.ts'
import { listDiseases } from './api/listDiseases.ts'
import { baseLabel, messageText, type BaseField, type Message } from './setupForms.ts'

const o = (group: string, value: string) => `projectSetup.option.${group}.${value}`

/**
 * Every base field of a project (SPEC §3) with its listed options: the wizard's basic-info step
 * and the edit page's base tab. `errors` are shown as each field's helper text.
 */
export function BaseFields({
  form,
  onChange,
  errors,
  idPrefix,
}: {
  form: BaseForm
  onChange(patch: Partial<BaseForm>): void
  errors: Partial<Record<BaseField, Message>>
  idPrefix: string
}) {
  const t = useT()
  const lang = useLang()
  const diseases = useApi(['diseases', 'projectChoices'], (signal) => listDiseases({ signal }))

  const field = (name: BaseField, control: ReactNode, required = false) => {
    const error = errors[name]
    return (
      <FormGroup
        key={name}
        label={t(baseLabel(name))}
        labelFor={`${idPrefix}-${name}`}
        labelInfo={required ? '*' : undefined}
        intent={error ? 'danger' : 'none'}
        helperText={error ? <span id={`${idPrefix}-${name}-error`}>{messageText(t, error)}</span> : undefined}
        className="project-field"
      >
        {control}
      </FormGroup>
    )
  }
  const common = (name: BaseField) => ({
    id: `${idPrefix}-${name}`,
    'data-testid': `base-${name}`,
    'aria-invalid': errors[name] ? true : undefined,
    'aria-describedby': errors[name] ? `${idPrefix}-${name}-error` : undefined,
  })
  const text = (name: 'name' | 'number' | 'groupNumber' | 'therapyTime' | 'followUpTime', max: number, required = false) =>
    field(
      name,
      <InputGroup
        {...common(name)}
        maxLength={max}
        value={form[name]}
        intent={errors[name] ? 'danger' : 'none'}
        onChange={(e) => onChange({ [name]: e.currentTarget.value })}
      />,
      required,
    )
  const count = (name: 'plannedQuantity' | 'plannedGroups', max: number) =>
    field(
      name,
      <InputGroup
        {...common(name)}
        inputMode="numeric"
        maxLength={String(max).length + 2}
        value={form[name]}
        intent={errors[name] ? 'danger' : 'none'}
        onChange={(e) => onChange({ [name]: e.currentTarget.value })}
      />,
      true,
    )
  const choice = <V extends string>(
    name: BaseField,
    group: string,
    values: readonly V[],
    value: V | '',
    set: (v: V | '') => void,
    empty?: string,
    required = true,
  ) =>
    field(
      name,
      <HTMLSelect
        {...common(name)}
        value={value}
        onChange={(e) => set(e.currentTarget.value as V | '')}
        options={[
          ...(empty !== undefined ? [{ value: '', label: empty }] : []),
          ...values.map((v) => ({ value: v, label: t(o(group, v)) })),
        ]}
      />,
      required,
    )

  return (
    <div className="project-base-fields">
      {choice('type', 'type', projectTypes, form.type, (type) => onChange({ type }), t('projectSetup.msg.select', [t(baseLabel('type'))]))}
      {text('name', projectLimits.name, true)}
      {text('number', projectLimits.number, true)}
      {choice(
        'testStage',
        'testStage',
        testStages,
        form.testStage,
        (testStage) => onChange({ testStage }),
        t(o('testStage', 'none')),
        false,
      )}
      {text('groupNumber', projectLimits.groupNumber)}
      {field(
        'manageBiomaterial',
        <RadioGroup
          inline
          name={`${idPrefix}-manageBiomaterial`}
          selectedValue={form.manageBiomaterial ? 'yes' : 'no'}
          onChange={(e) => onChange({ manageBiomaterial: e.currentTarget.value === 'yes' })}
        >
          <Radio
            id={`${idPrefix}-manageBiomaterial`}
            value="yes"
            label={t('projectSetup.option.yes')}
            data-testid="base-manageBiomaterial-yes"
          />
          <Radio value="no" label={t('projectSetup.option.no')} data-testid="base-manageBiomaterial-no" />
        </RadioGroup>,
      )}
      {choice(
        'groupType',
        'groupType',
        groupTypes,
        form.groupType,
        (groupType) => onChange({ groupType }),
        t('projectSetup.msg.select', [t(baseLabel('groupType'))]),
      )}
      {field(
        'diseaseId',
        <HTMLSelect
          {...common('diseaseId')}
          value={form.diseaseId === null ? '' : String(form.diseaseId)}
          onChange={(e) => onChange({ diseaseId: e.currentTarget.value === '' ? null : Number(e.currentTarget.value) })}
          options={[
            { value: '', label: t('projectSetup.option.noDisease') },
            ...(diseases.data ?? []).map((d) => ({ value: String(d.id), label: bilingual(d.name, d.nameEn, lang) })),
          ]}
        />,
      )}
      {choice('blinded', 'blinded', blindedSets, form.blinded, (v) => v !== '' && onChange({ blinded: v }))}
      {choice('randomMethod', 'randomMethod', randomMethods, form.randomMethod, (v) => v !== '' && onChange({ randomMethod: v }))}
      {count('plannedQuantity', projectLimits.plannedQuantity)}
      {count('plannedGroups', projectLimits.plannedGroups)}
      {text('therapyTime', projectLimits.time)}
      {text('followUpTime', projectLimits.time)}
    </div>
  )
}
