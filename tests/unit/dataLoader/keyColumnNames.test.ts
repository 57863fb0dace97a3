import { describe, expect, it } from 'vitest'
import { versionField, type TemplateVersion, type VersionField } from '../../../contract/crf.ts'
import type { FormMode } from '../../../contract/studyData.ts'
import { RowChecker, type ProjectFacts } from '../../../server/services/dataLoader/checkRows.ts'
import { sheetsOf, type LoadForm } from '../../../server/services/dataLoader/layout.ts'

/**
 * A field may be coded like a key column (REDCap projects often have a `center` or `visit`
 * variable): its sheet then has that name twice, the key column first, as the layout writes it,
 * and a file in the layout loads with each cell going where it belongs.
 */

let nextId = 1
const field = (code: string, over: Partial<VersionField> = {}): VersionField =>
  versionField.parse({
    id: nextId++,
    code,
    nameZh: code,
    nameEn: code,
    type: 'blank',
    display: 'input',
    inUse: true,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    dependentCode: null,
    ...over,
  })

function form(mode: FormMode, sections: { key: string; repeating?: boolean; fields: VersionField[] }[]): LoadForm {
  const version: TemplateVersion = {
    id: 10,
    version: 1,
    state: 'published',
    publishedAt: '2026-01-01T00:00:00.000Z',
    templateId: 1,
    layout: {
      sections: sections.map((s) => ({
        key: s.key,
        title: s.key,
        repeating: s.repeating ?? false,
        items: s.fields.map((f) => ({ indicatorId: f.id, required: false })),
      })),
    },
    indicators: sections.flatMap((s) => s.fields),
  }
  return { templateId: 1, versionId: 10, name: 'sites', mode, version }
}

const center = field('center')
const visit = field('visit')
const row = field('row', { dataType: 'integer' })
const crf = form('visit', [
  { key: 'main', fields: [center, visit] },
  { key: 'list', repeating: true, fields: [row] },
])

const facts: ProjectFacts = {
  subjects: (nos) => Promise.resolve(nos.map((n) => ({ id: 5, subjectNo: n, centerId: 1, queueId: 1, inScope: true, summaryEmpty: true }))),
  centers: new Map([['c1', 1]]),
  queues: new Map([['A', 1]]),
  visits: new Map([['V1', new Map([[1, 7]])]]),
  samples: new Map(),
  mayEditSaved: true,
  records: () => Promise.resolve([]),
  rows: () => Promise.resolve([]),
}

describe('a field coded like a key column', () => {
  it('is a column of its own after the key column of that name, and its cells load into the field', async () => {
    for (const groups of [false, true]) {
      const sheets = sheetsOf([crf], { groups })
      const [main, list] = sheets as [(typeof sheets)[number], (typeof sheets)[number]]
      expect(main.columns.map((c) => c.key)).toEqual([
        'subject_id',
        'center',
        'queue',
        ...(groups ? ['rand_group'] : []),
        'visit',
        'center',
        'visit',
      ])
      expect(list.columns.map((c) => c.key)).toEqual(['subject_id', 'visit', 'row', 'row'])
      const checker = new RowChecker('en', facts, (s) => sheets.find((x) => x.name === s), [crf])
      checker.bind(
        main.name,
        main.columns.map((c) => c.key),
      )
      const cells = { subject_id: 'S-1', center: 'C1', queue: 'A', rand_group: 'T', visit: 'V1' }
      await checker.check(main.name, [
        { row: 3, cells: [...main.columns.map((c) => (c.field ? `field ${c.key}` : cells[c.key as keyof typeof cells]))] },
      ])
      checker.bind(
        list.name,
        list.columns.map((c) => c.key),
      )
      await checker.check(list.name, [{ row: 3, cells: ['S-1', 'V1', '1', '42'] }])
      expect(checker.errors).toEqual([])
      const plan = checker.takePlan()
      expect(plan.records.map((r) => [r.slot, r.values])).toEqual([['v7', { [center.id]: 'field center', [visit.id]: 'field visit' }]])
      expect(plan.rows.map((r) => [r.row.sort, r.row.values])).toEqual([[0, { [row.id]: '42' }]])
    }
  })

  it('is read as the key column when the file has the name once', async () => {
    const sheets = sheetsOf([crf])
    const main = sheets[0]!
    const checker = new RowChecker('en', facts, (s) => sheets.find((x) => x.name === s), [crf])
    checker.bind(main.name, ['subject_id', 'visit', 'center'])
    await checker.check(main.name, [{ row: 3, cells: ['S-2', 'V1', 'C1'] }])
    expect(checker.errors).toEqual([])
    expect(checker.takePlan().records.map((r) => [r.slot, r.values])).toEqual([['v7', {}]])
  })
})
