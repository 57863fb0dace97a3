import { describe, expect, it } from 'vitest'
import type { Layout } from '../../../contract/crf.ts'
import { translate } from '../../../src/i18n/index.ts'
import { renderMessage } from '../../../src/lib/validators.ts'
import {
  defaultValueOf,
  fieldPath,
  parseFieldPath,
  rowPath,
  fieldProblem,
  indicatorMap,
  initialForm,
  isVisible,
  labelOf,
  numberAsKept,
  rangeHint,
  validateForm,
  visibleData,
  type FormData,
  type FormDefinition,
} from '../../../src/ui/formRenderer/formModel.ts'
import { ind } from './support.ts'
import { choices } from '../../support/choices.ts'

const zh = (ref: Parameters<typeof renderMessage>[0] | null) => (ref === null ? null : renderMessage(ref, (k, p) => translate('zh', k, p)))
const en = (ref: Parameters<typeof renderMessage>[0] | null) => (ref === null ? null : renderMessage(ref, (k, p) => translate('en', k, p)))

const age = ind({
  id: 101,
  code: 'age',
  nameZh: '年龄',
  nameEn: 'Age',
  type: 'blank',
  display: 'input',
  dataType: 'integer',
  minimum: 0,
  maximum: 120,
  unit: '岁',
})
const weight = ind({
  id: 102,
  code: 'weight',
  nameZh: '体重',
  nameEn: '',
  type: 'blank',
  display: 'input',
  dataType: 'decimal',
  minimum: 1,
})
const smoker = ind({
  id: 103,
  code: 'smoker',
  nameZh: '吸烟',
  nameEn: 'Smoker',
  type: 'single',
  display: 'radio',
  options: choices('1', '2'),
})
const packs = ind({
  id: 104,
  code: 'packs',
  nameZh: '每日包数',
  nameEn: 'Packs a day',
  type: 'blank',
  display: 'input',
  dataType: 'integer',
  dependentFieldId: 103,
  dependentValue: '1',
})
const symptoms = ind({
  id: 105,
  code: 'symptoms',
  nameZh: '症状',
  nameEn: 'Symptoms',
  type: 'multiple',
  display: 'checkbox',
  options: choices('1', '2', '3'),
  defaultValue: '1|3',
})
const feverDays = ind({
  id: 106,
  code: 'feverDays',
  nameZh: '发热天数',
  nameEn: 'Fever days',
  type: 'blank',
  display: 'input',
  dataType: 'integer',
  dependentFieldId: 105,
  dependentValue: '2',
  maximum: 30,
})
const visit = ind({
  id: 107,
  code: 'visit',
  nameZh: '就诊日期',
  nameEn: 'Visit date',
  type: 'date',
  display: 'input',
  dateFormat: 'YYYY-MM-DD',
})
const drug = ind({ id: 108, code: 'drug', nameZh: '药物', nameEn: 'Drug', type: 'blank', display: 'input', dataType: 'text' })
const dose = ind({
  id: 109,
  code: 'dose',
  nameZh: '剂量',
  nameEn: 'Dose',
  type: 'blank',
  display: 'input',
  dataType: 'decimal',
  maximum: 10,
})
const route = ind({
  id: 110,
  code: 'route',
  nameZh: '途径',
  nameEn: 'Route',
  type: 'single',
  display: 'select',
  options: choices('1', '2'),
})
const ivRate = ind({
  id: 111,
  code: 'ivRate',
  nameZh: '滴速',
  nameEn: 'IV rate',
  type: 'blank',
  display: 'input',
  dataType: 'integer',
  dependentFieldId: 110,
  dependentValue: '2',
})

const layout: Layout = {
  sections: [
    {
      key: 'base',
      title: '基本信息',
      repeating: false,
      items: [
        { indicatorId: age.id, required: true },
        { indicatorId: weight.id, required: false },
        { indicatorId: smoker.id, required: true },
        { indicatorId: packs.id, required: true },
        { indicatorId: symptoms.id, required: false },
        { indicatorId: feverDays.id, required: true },
        { indicatorId: visit.id, required: true },
      ],
    },
    {
      key: 'drugs',
      title: '用药',
      repeating: true,
      items: [
        { indicatorId: drug.id, required: true },
        { indicatorId: dose.id, required: false },
        { indicatorId: route.id, required: false },
        { indicatorId: ivRate.id, required: true },
      ],
    },
  ],
}
const def: FormDefinition = { layout, indicators: [age, weight, smoker, packs, symptoms, feverDays, visit, drug, dose, route, ivRate] }
const byId = indicatorMap(def)

describe('field paths', () => {
  it('a field path and a row path come apart into what built them', () => {
    expect(parseFieldPath(fieldPath(201))).toEqual({ section: null, row: 0, key: '201' })
    expect(parseFieldPath(fieldPath(202, 'meds', 3))).toEqual({ section: 'meds', row: 3, key: '202' })
    expect(parseFieldPath(rowPath('meds', 3))).toEqual({ section: 'meds', row: 3, key: '' })
  })
})

describe('labels', () => {
  it('follow the language, English falling back to Chinese', () => {
    expect(labelOf(age, 'zh')).toBe('年龄')
    expect(labelOf(age, 'en')).toBe('Age')
    expect(labelOf(weight, 'en')).toBe('体重')
  })
})

describe('initial form', () => {
  it('holds defaults (a multiple default split at |) and one row per sub form', () => {
    const data = initialForm(def)
    expect(data.values[String(symptoms.id)]).toEqual(['1', '3'])
    expect(data.values[String(age.id)]).toBe('')
    expect(data.rows.drugs).toHaveLength(1)
    expect(Object.keys(data.rows.drugs?.[0] ?? {}).sort()).toEqual(['108', '109', '110', '111'])
    expect(defaultValueOf(smoker)).toBe('')
  })
})

describe('the dependent-field rule', () => {
  it('shows a field only when the field it depends on has the value', () => {
    expect(isVisible(packs, byId, { values: {} })).toBe(false)
    expect(isVisible(packs, byId, { values: { '103': '2' } })).toBe(false)
    expect(isVisible(packs, byId, { values: { '103': '1' } })).toBe(true)
    expect(isVisible(age, byId, { values: {} })).toBe(true)
  })
  it('looks into the answers of a multiple choice', () => {
    expect(isVisible(feverDays, byId, { values: { '105': ['1'] } })).toBe(false)
    expect(isVisible(feverDays, byId, { values: { '105': ['1', '2'] } })).toBe(true)
  })
  it('reads a sub form row before the plain values', () => {
    expect(isVisible(ivRate, byId, { row: { '110': '2' }, values: {} })).toBe(true)
    expect(isVisible(ivRate, byId, { row: { '110': '1' }, values: { '110': '2' } })).toBe(false)
  })
  it('hides a field whose parent is hidden, and every field of a cycle', () => {
    const child = ind({ id: 120, type: 'blank', display: 'input', dependentFieldId: packs.id, dependentValue: '1' })
    const map = new Map([...byId, [child.id, child]])
    expect(isVisible(child, map, { values: { '104': '1' } })).toBe(false)
    expect(isVisible(child, map, { values: { '103': '1', '104': '1' } })).toBe(true)
    const a = ind({
      id: 130,
      type: 'single',
      display: 'radio',
      options: [{ code: 'x', labelZh: 'x', labelEn: 'x' }],
      dependentFieldId: 131,
      dependentValue: 'x',
    })
    const b = ind({
      id: 131,
      type: 'single',
      display: 'radio',
      options: [{ code: 'x', labelZh: 'x', labelEn: 'x' }],
      dependentFieldId: 130,
      dependentValue: 'x',
    })
    const cyc = new Map([
      [a.id, a],
      [b.id, b],
    ])
    expect(isVisible(a, cyc, { values: { '130': 'x', '131': 'x' } })).toBe(false)
  })
  it('shows a field whose parent is not in the form (it cannot be decided here)', () => {
    const orphan = ind({ id: 140, type: 'blank', display: 'input', dependentFieldId: 9999, dependentValue: 'x' })
    expect(isVisible(orphan, byId, { values: {} })).toBe(true)
  })
  it('leaves hidden values out of what is saved', () => {
    const data: FormData = { values: { '101': '30', '103': '2', '104': '2' }, rows: { drugs: [{ '108': 'A', '110': '1', '111': '5' }] } }
    const out = visibleData(def, data)
    expect(out.values).toEqual({ '101': '30', '103': '2' })
    expect(out.rows.drugs).toEqual([{ '108': 'A', '110': '1' }])
  })
  it('keeps a number without the spaces around it or zeros before its first digit, and a text as typed', () => {
    const out = visibleData(def, { values: { '101': ' 060 ', '102': '-007.50' }, rows: { drugs: [{ '108': ' 0A ' }] } })
    expect(out.values).toEqual({ '101': '60', '102': '-7.50' })
    expect(out.rows.drugs).toEqual([{ '108': ' 0A ' }])
    expect(['0', '00', '0.5', '-0', '+05', '7.50', 'abc', ' 0x1'].map(numberAsKept)).toEqual([
      '0',
      '0',
      '0.5',
      '-0',
      '+5',
      '7.50',
      'abc',
      '0x1',
    ])
  })
})

describe('validation (SPEC §5 messages, contract rules)', () => {
  it('asks for a required typed field, and a required picked one', () => {
    expect(zh(fieldProblem(age, '', true, 'zh'))).toBe(translate('zh', 'validatorMsg.pleaseInput', ['年龄']))
    expect(en(fieldProblem(age, '  ', true, 'en'))).toBe('Please input Age')
    expect(en(fieldProblem(smoker, '', true, 'en'))).toBe('Please select Smoker')
    expect(en(fieldProblem(symptoms, [], true, 'en'))).toBe('Please select Symptoms')
    expect(fieldProblem(age, '', false, 'en')).toBeNull()
  })
  it('refuses a non-integer and a non-number with the SPEC messages', () => {
    expect(en(fieldProblem(age, '3.5', false, 'en'))).toBe('Please enter an integer')
    expect(en(fieldProblem(age, 'abc', false, 'en'))).toBe('Please enter an integer')
    expect(en(fieldProblem(weight, '1e3', false, 'en'))).toBe('Please enter an integer or a decimal')
    expect(fieldProblem(weight, '72.5', false, 'en')).toBeNull()
    expect(fieldProblem(age, '-0', false, 'en')).toBeNull()
  })
  it('refuses a value out of range, naming the bounds', () => {
    expect(en(fieldProblem(age, '121', false, 'en'))).toBe('Enter a value between 0 and 120')
    expect(zh(fieldProblem(age, '-1', false, 'zh'))).toBe('请输入0到120之间的值')
    expect(en(fieldProblem(weight, '0.5', false, 'en'))).toBe('Enter a value of at least 1')
    expect(en(fieldProblem(dose, '10.5', false, 'en'))).toBe('Enter a value of at most 10')
    expect(fieldProblem(age, '120', false, 'en')).toBeNull()
    expect(fieldProblem(age, '0', false, 'en')).toBeNull()
  })
  it('refuses a date not in the format or not a real date', () => {
    // Written in the format but not on the calendar: the format is not what the user must fix.
    expect(en(fieldProblem(visit, '2024-02-30', false, 'en'))).toBe('There is no such date: 2024-02-30')
    expect(zh(fieldProblem(visit, '2023-02-29', false, 'zh'))).toBe('日期不存在：2023-02-29')
    expect(en(fieldProblem(visit, '2024-13-01', false, 'en'))).toBe('There is no such date: 2024-13-01')
    expect(en(fieldProblem(visit, '2024/02/01', false, 'en'))).toBe('Does not match pattern YYYY-MM-DD')
    expect(fieldProblem(visit, '2024-02-29', false, 'en')).toBeNull()
    const time = ind({ type: 'date', display: 'input', dateFormat: 'HH:mm' })
    expect(en(fieldProblem(time, '24:00', false, 'en'))).toBe('There is no such time of day: 24:00')
    expect(zh(fieldProblem(time, '09:60', false, 'zh'))).toBe('时间不存在：09:60')
    expect(en(fieldProblem(time, '9:30', false, 'en'))).toBe('Does not match pattern HH:mm')
    expect(fieldProblem(time, '23:59', false, 'en')).toBeNull()
    const stamp = ind({ type: 'date', display: 'input', dateFormat: 'YYYY-MM-DD HH:mm' })
    expect(en(fieldProblem(stamp, '2024-02-30 08:00', false, 'en'))).toBe('There is no such date: 2024-02-30 08:00')
    expect(en(fieldProblem(stamp, '2024-02-28 25:00', false, 'en'))).toBe('There is no such time of day: 2024-02-28 25:00')
  })
  it('refuses an answer that is not an option', () => {
    expect(en(fieldProblem(smoker, '也许', false, 'en'))).toBe('"也许" is not an option of Smoker')
    expect(en(fieldProblem(symptoms, ['1', '头痛'], false, 'en'))).toBe('"头痛" is not an option of Symptoms')
    expect(fieldProblem(symptoms, ['1', '2'], false, 'en')).toBeNull()
  })
  it('accepts any text in a text field', () => {
    expect(fieldProblem(drug, '阿司匹林 100mg', true, 'zh')).toBeNull()
  })

  it('validates the shown fields of a whole form, sub form rows included', () => {
    const data: FormData = {
      values: { '101': '', '102': 'x', '103': '2', '104': '', '105': ['1'], '106': '', '107': '2024-01-01' },
      rows: {
        drugs: [
          { '108': '', '109': '11', '110': '2', '111': '' },
          { '108': 'B', '109': '', '110': '1', '111': '' },
        ],
      },
    }
    const errors = validateForm(def, data, 'en')
    expect(Object.keys(errors).sort()).toEqual(
      [fieldPath(101), fieldPath(102), fieldPath(108, 'drugs', 0), fieldPath(109, 'drugs', 0), fieldPath(111, 'drugs', 0)].sort(),
    )
    // packs (smoker is 否), feverDays (no fever) and row 2's IV rate (oral) are hidden: not validated.
    expect(errors[fieldPath(104)]).toBeUndefined()
    expect(errors[fieldPath(111, 'drugs', 1)]).toBeUndefined()
    expect(en(errors[fieldPath(111, 'drugs', 0)] ?? null)).toBe('Please input IV rate')
  })
  it('passes a complete, valid form', () => {
    const data: FormData = {
      values: { '101': '45', '103': '1', '104': '1', '105': ['2'], '106': '3', '107': '2024-05-01' },
      rows: { drugs: [{ '108': 'A', '110': '2', '111': '60' }] },
    }
    expect(validateForm(def, data, 'zh')).toEqual({})
  })
})

describe('range hint', () => {
  it('names the bounds the field has', () => {
    expect(en(rangeHint(age))).toBe('Range 0 – 120')
    expect(en(rangeHint(weight))).toBe('At least 1')
    expect(rangeHint(drug)).toBeNull()
  })
})
