/**
 * The indicator form refuses what the server refuses, with the server's words: the client's
 * `indicator.rule.*` and `indicator.field.*` texts equal server/i18n/messages.ts in both
 * languages, and checkForm runs the contract's indicatorProblems.
 */
import { describe, expect, it } from 'vitest'
import type { ProblemKey } from '../../../contract/indicatorRules.ts'
import { indicatorInput } from '../../../contract/dictionary.ts'
import { message, type MessageKey } from '../../../server/i18n/messages.ts'
import { translate, type Lang } from '../../../src/i18n/index.ts'
import { checkForm, emptyForm, formOf, messageText, withType, type IndicatorForm } from '../../../src/features/dictionary/indicatorForm.ts'
import { filtersFromPath } from '../../../src/features/dictionary/DictionaryListPage.tsx'
import { choices } from '../../support/choices.ts'

const problemKeys: ProblemKey[] = [
  'required',
  'optionLength',
  'choiceCode',
  'optionsRequired',
  'exists',
  'integer',
  'number',
  'minAboveMax',
  'defaultMustExist',
  'defaultOutOfRange',
  'displayMismatch',
  'dateFormatRequired',
  'dateMismatch',
  'noSuchDate',
  'noSuchTime',
  'dependentValueRequired',
]
const fields = Object.keys(indicatorInput.shape)
const langs: Lang[] = ['zh', 'en']

describe('the form speaks the server’s words', () => {
  it.each(langs)('every rule message equals the server’s in %s', (lang) => {
    for (const key of problemKeys) {
      const params = ['A', 'B']
      expect(translate(lang, `indicator.rule.${key}`, params), key).toBe(message(lang, `rule.${key}` as MessageKey, params))
    }
  })

  it.each(langs)('every field label equals the server’s in %s', (lang) => {
    for (const f of fields) expect(translate(lang, `indicator.field.${f}`), f).toBe(message(lang, `indicatorField.${f}` as MessageKey))
  })
})

const t = (lang: Lang) => (key: string, params?: (string | number)[]) => translate(lang, key, params)
const texts = (f: IndicatorForm, lang: Lang = 'en') => {
  const { errors } = checkForm(f)
  return Object.fromEntries(Object.entries(errors).map(([k, ms]) => [k, ms.map((m) => messageText(t(lang), m))]))
}

const valid = (): IndicatorForm => ({ ...emptyForm(), code: 'SMOKER', nameZh: '吸烟', options: choices('是', '否') })
const blank = (code: string) => ({ code, labelZh: '', labelEn: ' ' })

describe('checkForm', () => {
  it('turns a valid form into the contract’s input, leaving rows without a label out', () => {
    const yes = { code: 'Y', labelZh: ' 是 ', labelEn: 'Yes' }
    const no = { code: 'N', labelZh: '否', labelEn: '' }
    const { input, errors } = checkForm({ ...valid(), options: [yes, blank('2'), no, blank('4')], defaultValue: 'N' })
    expect(errors).toEqual({})
    expect(input).toMatchObject({
      code: 'SMOKER',
      type: 'single',
      display: 'radio',
      options: [{ code: 'Y', labelZh: '是', labelEn: 'Yes' }, no],
      defaultValue: 'N',
      minimum: null,
      dateFormat: null,
    })
    expect(indicatorInput.safeParse(input).success).toBe(true)
  })

  it('asks for the code and the Chinese name, and explains the shape of a code', () => {
    expect(texts({ ...valid(), code: '', nameZh: ' ' }, 'zh')).toEqual({ code: ['请输入编码'], nameZh: ['请输入中文名'] })
    expect(texts({ ...valid(), code: '9lives' })).toEqual({ code: [translate('en', 'indicator.codeRule')] })
    expect(checkForm({ ...valid(), code: '9lives' }).input).toBeNull()
  })

  it('refuses a choice without options, duplicate codes, bad codes, long labels and a default that is not a code', () => {
    expect(texts({ ...valid(), options: [blank('1'), blank('2')] })).toEqual({ options: ['Fill in at least one valid option'] })
    expect(texts({ ...valid(), options: [...choices('a'), ...choices('b')] })).toEqual({ options: ['1 already exists'] })
    expect(texts({ ...valid(), options: [{ code: 'a b', labelZh: 'x', labelEn: '' }] })).toEqual({
      options: [translate('en', 'indicator.rule.choiceCode', ['a b'])],
    })
    expect(texts({ ...valid(), defaultValue: '是' }, 'zh')).toEqual({ defaultValue: ['默认值必须存在'] })
    // REDCap labels run long: 500 characters pass, 501 do not, in either language.
    expect(texts({ ...valid(), options: choices('x'.repeat(500)) })).toEqual({})
    expect(texts({ ...valid(), options: [{ code: '1', labelZh: 'x', labelEn: 'y'.repeat(501) }] })).toEqual({
      options: ['Each option limited to 1-500 characters'],
    })
  })

  it('checks a multiple choice default option by option', () => {
    const f = withType(valid(), 'multiple')
    expect(f.display).toBe('checkbox')
    expect(checkForm({ ...f, defaultValue: '1|2' }).input?.defaultValue).toBe('1|2')
    expect(texts({ ...f, defaultValue: '1|3' })).toEqual({ defaultValue: ['Default value must exist'] })
  })

  it('reads numbers for a numeric blank and checks range, integers and the default', () => {
    const f: IndicatorForm = { ...withType(valid(), 'blank'), dataType: 'integer', minimum: '10', maximum: '5' }
    expect(f.display).toBe('input')
    expect(texts(f)).toEqual({ minimum: ['The minimum 10 must not exceed the maximum 5'] })
    expect(texts({ ...f, minimum: 'ten', maximum: '' })).toEqual({ minimum: ['Enter an integer or a decimal'] })
    expect(texts({ ...f, minimum: '1.5', maximum: '' })).toEqual({ minimum: ['Enter an integer'] })
    expect(texts({ ...f, minimum: '0', maximum: '100', defaultValue: '120' })).toEqual({
      defaultValue: ['The default value must be between 0 and 100'],
    })
    expect(checkForm({ ...f, minimum: '0', maximum: '100', defaultValue: '12' }).input).toMatchObject({
      minimum: 0,
      maximum: 100,
      defaultValue: '12',
      dataType: 'integer',
    })
  })

  it('sends no range or unit for a text or choice field, whatever was typed before a type change', () => {
    const f: IndicatorForm = { ...withType(valid(), 'blank'), dataType: 'decimal', minimum: '1', maximum: '2', unit: 'kg' }
    const back = withType(f, 'single')
    expect(checkForm(back).input).toMatchObject({ minimum: null, maximum: null, unit: '', dataType: 'text' })
  })

  it('needs a date format for a date and checks the default against it', () => {
    const f: IndicatorForm = { ...withType(valid(), 'date'), dateFormat: '' }
    expect(texts(f)).toEqual({ dateFormat: ['Please select a date format'] })
    expect(texts({ ...f, dateFormat: 'YYYY-MM-DD', defaultValue: '2024/02/01' })).toEqual({
      defaultValue: ['Does not match pattern YYYY-MM-DD'],
    })
    expect(texts({ ...f, dateFormat: 'YYYY-MM-DD', defaultValue: '2024-02-30' })).toEqual({
      defaultValue: ['There is no such date: 2024-02-30'],
    })
    expect(texts({ ...f, dateFormat: 'HH:mm', defaultValue: '24:00' })).toEqual({ defaultValue: ['There is no such time of day: 24:00'] })
    expect(checkForm({ ...f, dateFormat: 'YYYY-MM-DD', defaultValue: '2024-02-29' }).input?.dateFormat).toBe('YYYY-MM-DD')
  })

  it('needs the value of a dependent field, among its options when it has some', () => {
    const dep = { id: 3, code: 'SEX', nameZh: '性别', nameEn: 'Sex', options: choices('男', '女') }
    expect(texts({ ...valid(), dependent: dep })).toEqual({ dependentValue: ['Please input the value of the dependent field'] })
    expect(texts({ ...valid(), dependent: dep, dependentValue: '女' })).toEqual({
      dependentValue: [translate('en', 'indicator.dependentNotOption')],
    })
    expect(checkForm({ ...valid(), dependent: dep, dependentValue: '2' }).input).toMatchObject({ dependentFieldId: 3, dependentValue: '2' })
  })

  it('round-trips an indicator through the form', () => {
    const { input } = checkForm({
      ...withType(valid(), 'blank'),
      dataType: 'decimal',
      minimum: '0.5',
      maximum: '9.5',
      unit: 'mmol/L',
      indexClass: 'Lab',
    })
    if (!input) throw new Error('invalid')
    const back = formOf({ ...input, id: 1, inUse: false, createdAt: '', updatedAt: '' }, null)
    expect(checkForm(back).input).toEqual(input)
  })
})

describe('filtersFromPath', () => {
  it('reads a disease from the tab’s path and ignores anything else', () => {
    expect(filtersFromPath('/dataDictionary/dictionaryList?diseaseId=3')).toEqual({ diseaseId: 3 })
    expect(filtersFromPath('/dataDictionary/dictionaryList')).toEqual({})
    expect(filtersFromPath('/dataDictionary/dictionaryList?diseaseId=x')).toEqual({})
  })
})
