/**
 * Issue 7 (tests): random edits to the dictionary after publishing — names, choices added,
 * removed and relabelled, ranges, type changes, dependent rules, deletion attempts — never change
 * what version 1 answers, what the form renderer builds from it, or how it validates a set of
 * values. Runs on SQLite and on PostgreSQL (the api projects).
 */
import fc from 'fast-check'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { templatePaths, type Template, type TemplateVersion } from '../../contract/crf.ts'
import { dictionaryPaths, type Indicator } from '../../contract/dictionary.ts'
import { choiceLabel } from '../../contract/indicatorRules.ts'
import {
  initialForm,
  isVisible,
  indicatorMap,
  labelOf,
  validateForm,
  type FormData,
  type FormDefinition,
} from '../../src/ui/formRenderer/formModel.ts'
import { testApp, type TestApp } from '../support/testApp.ts'
import { apiCalls, type Payload } from '../support/apiCalls.ts'

let t: TestApp
let token: string
const { call, data } = apiCalls(
  () => t,
  () => token,
  '/',
)

const ids: Record<'single' | 'multiple' | 'integer' | 'date' | 'dependent' | 'decimal', number> = {
  single: 0,
  multiple: 0,
  integer: 0,
  date: 0,
  dependent: 0,
  decimal: 0,
}
let crfId = 0
let v1: TemplateVersion

beforeAll(async () => {
  t = await testApp()
  await t.createUser('dm', 'Datamgr1')
  token = await t.signIn('dm', 'Datamgr1')
  const make = async (p: Payload) => data<Indicator>(await call('POST', dictionaryPaths.indicators, p)).id
  const coded = (codes: string[]) => codes.map((code) => ({ code, labelZh: `选项${code}`, labelEn: `Option ${code}` }))
  ids.single = await make({
    code: 'P_SINGLE',
    nameZh: '分级',
    nameEn: 'Grade',
    type: 'single',
    display: 'radio',
    options: coded(['0', '1', '2']),
    defaultValue: '0',
  })
  ids.multiple = await make({
    code: 'P_MULTI',
    nameZh: '症状',
    nameEn: 'Symptoms',
    type: 'multiple',
    display: 'checkbox',
    options: coded(['a', 'b', 'c']),
    defaultValue: 'a|c',
  })
  ids.integer = await make({
    code: 'P_INT',
    nameZh: '年龄',
    type: 'blank',
    display: 'input',
    dataType: 'integer',
    minimum: 0,
    maximum: 100,
    unit: '岁',
  })
  ids.date = await make({ code: 'P_DATE', nameZh: '日期', nameEn: 'Date', type: 'date', display: 'input', dateFormat: 'YYYY-MM-DD' })
  ids.dependent = await make({
    code: 'P_DEP',
    nameZh: '说明',
    type: 'blank',
    display: 'input',
    dependentFieldId: ids.single,
    dependentValue: '1',
  })
  ids.decimal = await make({ code: 'P_DEC', nameZh: '剂量', type: 'blank', display: 'input', dataType: 'decimal', maximum: 10 })
  crfId = data<Template>(await call('POST', templatePaths.list, { kind: 'crf', name: 'Property CRF' })).id
  const item = (id: number, required = false) => ({ indicatorId: id, required })
  const layout = {
    sections: [
      {
        key: 'main',
        title: 'Main',
        repeating: false,
        items: [item(ids.single), item(ids.multiple), item(ids.integer, true), item(ids.date), item(ids.dependent, true)],
      },
      { key: 'doses', title: 'Doses', repeating: true, items: [item(ids.decimal, true)] },
    ],
  }
  data(await call('PUT', templatePaths.layout(crfId), layout))
  data(await call('POST', `${templatePaths.publishCrf}?id=${crfId}`))
  v1 = await readV1()
}, 60_000)
afterAll(() => t.close())

const readV1 = async () => data<TemplateVersion>(await call('GET', templatePaths.version(crfId, 1)))

/** Values to validate: valid ones, values out of range or format, codes that are no choice. */
const samples = (): FormData[] => {
  const k = (id: number) => String(id)
  return [
    {
      values: {
        [k(ids.single)]: '1',
        [k(ids.multiple)]: ['a', 'b'],
        [k(ids.integer)]: '40',
        [k(ids.date)]: '2024-02-29',
        [k(ids.dependent)]: '',
      },
      rows: { doses: [{ [k(ids.decimal)]: '2.5' }] },
    },
    {
      values: { [k(ids.single)]: '5', [k(ids.multiple)]: ['x'], [k(ids.integer)]: '140', [k(ids.date)]: '2023-02-29' },
      rows: { doses: [{ [k(ids.decimal)]: '11' }, {}] },
    },
    { values: { [k(ids.single)]: '2', [k(ids.integer)]: '4.5', [k(ids.date)]: '01/02/2024' }, rows: {} },
  ]
}

/** What the renderer makes of a version: its initial form, every label, which fields show, every message. */
function rendered(v: TemplateVersion) {
  const def: FormDefinition = { layout: v.layout, indicators: v.indicators }
  const byId = indicatorMap(def)
  return {
    initial: initialForm(def),
    labels: v.indicators.map((f) => [
      labelOf(f, 'zh'),
      labelOf(f, 'en'),
      f.options.map((o) => [o.code, choiceLabel(o, 'zh'), choiceLabel(o, 'en')]),
      f.unit,
    ]),
    visible: samples().map((s) => v.indicators.map((f) => isVisible(f, byId, { values: s.values }))),
    errors: samples().flatMap((s) => [validateForm(def, s, 'zh'), validateForm(def, s, 'en')]),
  }
}

type Target = keyof typeof ids
const targets = Object.keys(ids) as Target[]
const code = fc.constantFrom('0', '1', '2', '3', '4', '5', 'a', 'b', 'c', 'x', '-1')
const text = fc.string({ minLength: 0, maxLength: 24 })
const edit = fc.oneof(
  fc.record({ kind: fc.constant('rename' as const), target: fc.constantFrom(...targets), nameZh: text, nameEn: text }),
  fc.record({
    kind: fc.constant('choices' as const),
    target: fc.constantFrom<Target>('single', 'multiple'),
    list: fc.uniqueArray(fc.record({ code, labelZh: text, labelEn: text }), { selector: (c) => c.code, minLength: 1, maxLength: 6 }),
  }),
  fc.record({
    kind: fc.constant('range' as const),
    target: fc.constantFrom<Target>('integer', 'decimal'),
    minimum: fc.option(fc.integer({ min: -50, max: 50 })),
    maximum: fc.option(fc.integer({ min: 0, max: 500 })),
  }),
  fc.record({
    kind: fc.constant('type' as const),
    target: fc.constantFrom(...targets),
    type: fc.constantFrom('single', 'multiple', 'blank', 'date'),
  }),
  fc.record({ kind: fc.constant('dependent' as const), value: code }),
  fc.record({ kind: fc.constant('delete' as const), target: fc.constantFrom(...targets) }),
)
type Edit = typeof edit extends fc.Arbitrary<infer E> ? E : never

/** The indicator as it is now, as an input to PUT back with one change. */
async function current(id: number): Promise<Payload> {
  const {
    id: _id,
    inUse: _inUse,
    createdAt: _c,
    updatedAt: _u,
    ...input
  } = data<Indicator>(await call('GET', dictionaryPaths.indicator(id)))
  return input
}

let applied = 0
async function apply(e: Edit): Promise<void> {
  if (e.kind === 'delete') {
    const res = await call('DELETE', dictionaryPaths.indicator(ids[e.target]))
    expect(res.statusCode).toBe(409)
    return
  }
  const target = e.kind === 'dependent' ? 'dependent' : e.target
  const input = await current(ids[target])
  if (e.kind === 'rename') Object.assign(input, { nameZh: e.nameZh, nameEn: e.nameEn })
  if (e.kind === 'choices') Object.assign(input, { options: e.list, defaultValue: null })
  if (e.kind === 'range') Object.assign(input, { minimum: e.minimum, maximum: e.maximum, defaultValue: null })
  if (e.kind === 'type') Object.assign(input, { type: e.type })
  if (e.kind === 'dependent') Object.assign(input, { dependentValue: e.value })
  const res = await call('PUT', dictionaryPaths.indicator(ids[target]), input)
  // Refusals are fine (a frozen type, a removed choice another field relies on); a crash is not.
  expect([200, 400, 409]).toContain(res.statusCode)
  if (res.statusCode === 200) applied++
}

it('edits after publishing never change what version 1 answers, renders or validates', { timeout: 300_000 }, async () => {
  const before = rendered(v1)
  await fc.assert(
    fc.asyncProperty(fc.array(edit, { minLength: 1, maxLength: 5 }), async (edits) => {
      for (const e of edits) await apply(e)
      const now = await readV1()
      expect(now).toEqual(v1)
      expect(rendered(now)).toEqual(before)
    }),
    { numRuns: 40 },
  )
  // The property was tested against a dictionary that really moved.
  expect(applied).toBeGreaterThan(10)
  const liveNow = await Promise.all(v1.indicators.map((f) => current(f.id)))
  const frozen = v1.indicators.map(({ id: _i, inUse: _n, createdAt: _c, updatedAt: _u, dependentCode: _d, ...rest }) => rest)
  expect(liveNow).not.toEqual(frozen)
})
