import { describe, expect, it } from 'vitest'
import { RowChecker, type ProjectFacts } from '../../../server/services/dataLoader/checkRows.ts'
import { sheetsOf } from '../../../server/services/dataLoader/layout.ts'
import { fieldCoded, loadForm } from '../../support/loadForm.ts'

/**
 * A field may be coded like a key column (REDCap projects often have a `center` or `visit`
 * variable): its sheet then has that name twice, the key column first, as the layout writes it,
 * and a file in the layout loads with each cell going where it belongs.
 */

const center = fieldCoded('center')
const visit = fieldCoded('visit')
const row = fieldCoded('row', { dataType: 'integer' })
const crf = loadForm('sites', 'visit', [
  { key: 'main', fields: [center, visit] },
  { key: 'list', repeating: true, fields: [row] },
])

const facts: ProjectFacts = {
  subjects: (nos) => Promise.resolve(nos.map((n) => ({ id: 5, subjectNo: n, centerId: 1, queueId: 1, inScope: true, summaryEmpty: true }))),
  centers: new Map([['c1', 1]]),
  queues: new Map([['A', 1]]),
  visits: new Map([['V1', new Map([[crf.templateId, 7]])]]),
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
