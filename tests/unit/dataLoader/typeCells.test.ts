import { describe, expect, it } from 'vitest'
import type { TemplateVersion, VersionField } from '../../../contract/crf.ts'
import type { Lang } from '../../../contract/formValues.ts'
import type { StoredRecord, StoredRow } from '../../../server/db/repositories/dataLoadWrite.ts'
import { RowChecker, type ProjectFacts } from '../../../server/services/dataLoader/checkRows.ts'
import { sheetsOf, type LoadForm } from '../../../server/services/dataLoader/layout.ts'
import type { SheetRow } from '../../../server/services/dataLoader/model.ts'
import { cellTyper, typedValue } from '../../../server/services/dataLoader/typeCells.ts'
import { versionField } from '../../support/versionField.ts'

/**
 * A CSV's cells are read and checked on the reader's thread (typeCells.ts); the row checker then
 * takes those values and refusals instead of reading the cells itself. Whatever thread read them,
 * the checker must come to the same bad cells, with the same messages, and the same values.
 */

const choices = [
  { code: '1', labelZh: '是', labelEn: 'Yes' },
  { code: '2', labelZh: '否', labelEn: 'No' },
]
const field = (id: number, code: string, over: Partial<VersionField>) =>
  versionField({ id, code, nameZh: `字段${id}`, nameEn: `Field ${id}`, ...over })
const fields = {
  age: field(1, 'age', { type: 'blank', display: 'input', dataType: 'integer', minimum: 0, maximum: 120 }),
  weight: field(2, 'weight', { type: 'blank', display: 'input', dataType: 'decimal' }),
  seen: field(3, 'seen', { type: 'date', display: 'input', dateFormat: 'YYYY-MM-DD' }),
  at: field(4, 'at', { type: 'date', display: 'input', dateFormat: 'YYYY-MM-DD HH:mm:ss' }),
  smoker: field(5, 'smoker', { type: 'single', display: 'radio', options: choices }),
  drugs: field(6, 'drugs', { type: 'multiple', display: 'checkbox', options: choices }),
  note: field(7, 'note', { type: 'blank', display: 'input' }),
  packs: field(8, 'packs', { type: 'blank', display: 'input', dataType: 'integer', dependentFieldId: 5, dependentValue: '1' }),
  dose: field(9, 'dose', { type: 'blank', display: 'input', dataType: 'decimal', minimum: 1 }),
}
const plainIds = [1, 2, 3, 4, 5, 6, 7]
const required = new Set([1, 6])

function formOf(templateId: number, ids: number[], sub: boolean): LoadForm {
  const byId = new Map(Object.values(fields).map((f) => [f.id, f]))
  const version: TemplateVersion = {
    id: templateId * 10,
    version: 1,
    state: 'published',
    publishedAt: null,
    templateId,
    layout: {
      sections: [
        { key: 'base', title: '', repeating: false, items: ids.map((id) => ({ indicatorId: id, required: required.has(id) })) },
        ...(sub ? [{ key: 'doses', title: 'Doses', repeating: true, items: [{ indicatorId: 9, required: true }] }] : []),
      ],
    },
    indicators: [...ids, ...(sub ? [9] : [])].map((id) => byId.get(id)!),
  }
  return { templateId, versionId: version.id, name: `Form ${templateId}`, mode: 'single', version }
}

const plainForm = formOf(1, plainIds, false)
const dependentForm = formOf(2, [...plainIds, 8], true)

/** K<n> subjects have a stored record of each form (age 30, drugs 1), so their empty cells take stored values; N<n> have none; any other is no subject of the project. */
function facts(): ProjectFacts {
  const idOf = (no: string) => Number(no.slice(1)) * 2 + (no.startsWith('K') ? 1 : 0)
  const stored = (subjectId: number, templateId: number): StoredRecord => ({
    id: subjectId * 100 + templateId,
    subject_id: subjectId,
    template_id: templateId,
    version_id: templateId * 10,
    slot: '',
    data: JSON.stringify({ 1: '30', 6: ['1'] }),
    status: 'saved',
    rev: 1,
  })
  return {
    subjects: (nos) =>
      Promise.resolve(
        nos
          .filter((no) => /^[KN]\d+$/.test(no))
          .map((no) => ({ id: idOf(no), subjectNo: no, centerId: 1, queueId: 1, inScope: true, summaryEmpty: true })),
      ),
    centers: new Map([['c1', 1]]),
    queues: new Map([['A', 1]]),
    visits: new Map(),
    samples: new Map(),
    mayEditSaved: true,
    records: (ids) => Promise.resolve(ids.filter((id) => id % 2 === 1).flatMap((id) => [stored(id, 1), stored(id, 2)])),
    rows: (): Promise<StoredRow[]> => Promise.resolve([]),
  }
}

/** Rows meant to reach every rule: good and bad values of each kind, labels, full width, empty required cells. */
const samples: Record<string, string>[] = [
  { age: '57', weight: '60.50', seen: '2024-01-05', at: '2024-01-05 09:30:00', smoker: '1', drugs: '1|2', note: 'fine' },
  { age: '０５７', weight: '６０．５', seen: '２０２４／１／５', at: '2024/1/5 9:30', smoker: 'Yes', drugs: '否｜是', note: ' spaced ' },
  { age: '121', weight: 'heavy', seen: '5/1/2024', at: '2024-01-05', smoker: 'maybe', drugs: '1|7', note: 'bell\u0007' },
  { age: '-1', weight: '1e3', seen: '20240105', at: '2024-13-45 99:99', smoker: '是', drugs: '|', note: '' },
  { age: '', weight: '', seen: '', at: '', smoker: '', drugs: '', note: '' },
  { age: '12.5', smoker: '2', packs: '3', note: '\u3000' },
  { smoker: '1', packs: 'ten', drugs: '2' },
]
const doses = ['2', '0.5', 'x', '', '１．５', '1e1']

/** Each sample for a subject with stored values, one without, and one the project lacks. */
function rowsOf(codes: string[]): SheetRow[] {
  const rows: SheetRow[] = []
  samples.forEach((s, i) => {
    for (const subject of [`K${i}`, `N${i}`, `X${i}`])
      rows.push({ row: rows.length + 3, cells: [subject, 'c1', 'A', ...codes.map((c) => s[c] ?? '')] })
  })
  return rows
}

const subRows = (): SheetRow[] => doses.map((dose, i) => ({ row: i + 3, cells: [`K${i}`, '1', dose] }))

async function checked(form: LoadForm, lang: Lang, typed: boolean) {
  const layouts = sheetsOf([form])
  const checker = new RowChecker(lang, facts(), (sheet) => layouts.find((l) => l.name === sheet), [form])
  const typings = []
  const sheets = layouts.map((l) => {
    const keys = l.columns.filter((c) => c.kind === 'key' && c.key !== 'rand_group').map((c) => c.key)
    const codes = l.columns.filter((c) => c.kind === 'field').map((c) => c.key)
    return { name: l.name, header: [...keys, ...codes], rows: l.section === '' ? rowsOf(codes) : subRows() }
  })
  for (const sheet of sheets) {
    checker.bind(sheet.name, sheet.header)
    const typing = checker.typingOf(sheet.name)!
    typings.push(typing)
    // Across threads as the reader posts it: what structured cloning keeps.
    const type = cellTyper(structuredClone(typing))
    const rows = typed
      ? sheet.rows.map((r) => {
          const row = { ...r }
          type(row)
          return structuredClone(row)
        })
      : sheet.rows
    await checker.check(sheet.name, rows)
  }
  const plan = checker.takePlan()
  return {
    errors: checker.errors,
    errorsTotal: checker.errorsTotal,
    values: plan.records.map((r) => ({ subject: r.subject.subject.subjectNo, values: r.values, changes: r.changes })),
    data: plan.records.flatMap((r) => (r.data === undefined ? [] : [[r.data, JSON.stringify(r.values)]])),
    rows: plan.rows.map((r) => ({ subject: r.record.subject.subject.subjectNo, values: r.row.values })),
    typings,
  }
}

describe('cells typed on the reader thread', () => {
  for (const lang of ['zh', 'en'] as const) {
    it(`a form without dependent fields: the same bad cells, messages (${lang}) and values as cells read by the checker`, async () => {
      const own = await checked(plainForm, lang, false)
      const typed = await checked(plainForm, lang, true)
      expect(typed.errors).toEqual(own.errors)
      expect(typed.values).toEqual(own.values)
      // The sample reaches the rules: bad values of each kind, required cells, the stored values' use.
      expect(own.errorsTotal).toBeGreaterThan(20)
      // A new record of a typed row stores the JSON its thread made: what the values would make.
      expect(own.data).toEqual([])
      expect(typed.data.length).toBeGreaterThan(5)
      for (const [made, values] of typed.data) expect(made).toBe(values)
      expect(own.errors.map((e) => e.column)).toEqual(expect.arrayContaining(['age', 'weight', 'seen', 'at', 'smoker', 'drugs', 'note']))
      // Every field is checked where it is read, required ones as required.
      expect(typed.typings[0]!.plain).toBe(true)
      expect(typed.typings[0]!.columns.map((c) => [c.field.code, c.required])).toEqual(
        ['age', 'weight', 'seen', 'at', 'smoker', 'drugs', 'note'].map((c) => [c, c === 'age' || c === 'drugs']),
      )
    })

    it(`a form with a dependent field and a sub form: the same bad cells, messages (${lang}) and values; cells only read there`, async () => {
      const own = await checked(dependentForm, lang, false)
      const typed = await checked(dependentForm, lang, true)
      expect(typed.errors).toEqual(own.errors)
      expect(typed.values).toEqual(own.values)
      expect(typed.rows).toEqual(own.rows)
      expect(own.errors.map((e) => e.column)).toEqual(expect.arrayContaining(['packs', 'age', 'dose']))
      expect(own.rows.length).toBeGreaterThan(2)
      expect(typed.typings.map((t) => t.plain)).toEqual([false, false])
      expect(typed.data).toEqual([])
    })
  }

  it('types only the field columns of a row: empty cells undefined, a value that is the text of its cell null; the JSON of what a new record stores; refusals only where made', () => {
    const type = cellTyper({
      lang: 'en',
      columns: [
        { at: 5, field: fields.drugs, required: true },
        { at: 3, field: fields.age, required: false },
        { at: 6, field: fields.note, required: false },
      ],
      plain: true,
    })
    const good: SheetRow = { row: 3, cells: ['S1', 'c1', 'A', '０５７', 'x', 'No|是', 'as typed'] }
    type(good)
    expect(good.typed).toEqual([undefined, undefined, undefined, '57', undefined, ['2', '1'], null])
    expect([3, 4, 5, 6].map((at) => typedValue(good.typed!, good.cells, at))).toEqual(['57', undefined, ['2', '1'], 'as typed'])
    expect(good.data).toBe('{"1":"57","6":["2","1"],"7":"as typed"}')
    expect(good.refused).toBeUndefined()
    // A multiple choice of '|' alone is read as no choice: no value to store, and refused as a required field's.
    const bad: SheetRow = { row: 4, cells: ['S1', 'c1', 'A', '200', '', '|'] }
    type(bad)
    expect(bad.typed).toEqual([undefined, undefined, undefined, null, undefined, [], undefined])
    expect(bad.data).toBe('{"1":"200"}')
    expect(bad.refused?.[3]).toEqual({ key: 'form.range.between', params: [0, 120] })
    expect(bad.refused?.[5]).toEqual({ key: 'validatorMsg.pleaseSelect', params: ['Field 6'] })
  })
})
