import { afterEach, describe, expect, it } from 'vitest'
import { renderToStaticMarkup } from 'react-dom/server'
import type { FormDefinition } from '../../../contract/formValues.ts'
import type { SaveConflict } from '../../../contract/studyData.ts'
import { setLang } from '../../../src/i18n/index.ts'
import { ConflictChoices } from '../../../src/features/subjects/entry/ConflictDialog.tsx'
import { SaveStateTag } from '../../../src/features/subjects/entry/SaveStateTag.tsx'
import { conflictItems, mergeChoices, theirsAsForm } from '../../../src/features/subjects/entry/conflictMerge.ts'
import { ind } from '../formRenderer/support.ts'

const name = ind({ id: 101, type: 'blank', display: 'input', nameZh: '姓名', nameEn: 'Name' })
const age = ind({ id: 102, type: 'blank', display: 'input', dataType: 'integer', nameZh: '年龄', nameEn: 'Age' })
const sex = ind({
  id: 103,
  type: 'single',
  display: 'select',
  nameZh: '性别',
  nameEn: 'Sex',
  options: [
    { code: '1', labelZh: '男', labelEn: 'Male' },
    { code: '2', labelZh: '女', labelEn: 'Female' },
  ],
})
const drug = ind({ id: 104, type: 'blank', display: 'input', nameZh: '药物', nameEn: 'Drug' })
const definition: FormDefinition = {
  indicators: [name, age, sex, drug],
  layout: {
    sections: [
      {
        key: 'main',
        title: '',
        repeating: false,
        items: [
          { indicatorId: 101, required: false },
          { indicatorId: 102, required: false },
          { indicatorId: 103, required: false },
        ],
      },
      { key: 'meds', title: 'Medication', repeating: true, items: [{ indicatorId: 104, required: false }] },
    ],
  },
}
const mine = { values: { '101': 'Li', '102': '40', '103': '1' }, rows: { meds: [{ '104': 'aspirin' }] } }
const theirs: SaveConflict['current'] = {
  record: {
    id: 9,
    templateId: 3,
    versionId: 1,
    slot: '',
    visitId: null,
    sampleId: null,
    status: 'saved',
    rev: 4,
    updatedAt: '2026-11-26T10:00:00.000Z',
    updatedBy: 'zhang',
  },
  values: { '101': 'Li', '102': '41', '103': '2' },
  rows: { meds: [{ id: 1, rev: 1, values: { '104': 'aspirin' } }] },
}

afterEach(() => setLang('zh'))

describe('conflict choices', () => {
  it('lists the differing fields first, in layout order, and compares sub forms whole', () => {
    const { fields, sections } = conflictItems(definition, mine, theirsAsForm(theirs))
    expect(fields.map((f) => [f.key, f.differs])).toEqual([
      ['f102', true],
      ['f103', true],
      ['f101', false],
    ])
    expect(sections.map((s) => [s.key, s.differs])).toEqual([['smeds', false]])
  })

  it('an empty value and a missing one are the same', () => {
    const { fields } = conflictItems(definition, { values: { '101': '' }, rows: {} }, { values: {}, rows: {} })
    expect(fields.find((f) => f.key === 'f101')?.differs).toBe(false)
  })

  it('merges field by field: mine unless theirs was chosen', () => {
    const merged = mergeChoices(definition, mine, theirsAsForm(theirs), { f103: 'theirs' })
    expect(merged).toEqual({ values: { '101': 'Li', '102': '40', '103': '2' }, rows: { meds: [{ '104': 'aspirin' }] } })
    const rows = mergeChoices(
      definition,
      { values: {}, rows: { meds: [] } },
      { values: { '101': 'x' }, rows: { meds: [{ '104': 'a' }] } },
      { smeds: 'theirs' },
    )
    expect(rows).toEqual({ values: {}, rows: { meds: [{ '104': 'a' }] } })
  })

  it('shows both values with choice labels, who saved, and a choice only where they differ', () => {
    setLang('en')
    const html = renderToStaticMarkup(
      <ConflictChoices definition={definition} mine={mine} theirs={theirs} choices={{ f103: 'theirs' }} onChange={() => undefined} />,
    )
    expect(html).toContain('zhang saved this form')
    expect(html).toContain('2 fields differ')
    expect(html).toContain('Male')
    expect(html).toContain('Female')
    expect(html.indexOf('data-testid="conflict-f102"')).toBeLessThan(html.indexOf('data-testid="conflict-f101"'))
    expect(html).toMatch(/data-testid="conflict-f101" data-differs="false">.*?Same/)
    expect(html).not.toContain('conflict-f101-mine')
    expect(html).toContain('conflict-f103-theirs')
  })
})

describe('SaveStateTag', () => {
  const render = (state: Parameters<typeof SaveStateTag>[0]['state']) => renderToStaticMarkup(<SaveStateTag state={state} />)
  it('says every state in both languages, in a live region', () => {
    setLang('en')
    expect(render({ kind: 'queued', count: 3 })).toContain('Queued (3)')
    expect(render({ kind: 'refused', message: 'Please input Age' })).toContain('Not saved: Please input Age')
    expect(render({ kind: 'unsaved' })).toContain('Unsaved')
    expect(render({ kind: 'sending' })).toContain('Saving...')
    expect(render({ kind: 'conflict', current: theirs })).toContain('Conflict')
    expect(render({ kind: 'saved', at: null })).toContain('Saved')
    setLang('zh')
    expect(render({ kind: 'queued', count: 3 })).toContain('等待发送（3）')
    const html = render({ kind: 'saved', at: null })
    expect(html).toContain('已保存')
    expect(html).toContain('role="status"')
    expect(html).toContain('aria-live="polite"')
    expect(html).toContain('data-state="saved"')
  })
})
