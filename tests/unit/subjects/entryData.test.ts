import { describe, expect, it } from 'vitest'
import type { Layout, TemplateVersion } from '../../../contract/crf.ts'
import type { FormInstance, RecordHead } from '../../../contract/studyData.ts'
import { formSave } from '../../../contract/studyData.ts'
import {
  changesSaved,
  differences,
  differsFrom,
  emptyRequired,
  rowIdentity,
  rowKey,
  savedLock,
  toFormData,
  toSave,
} from '../../../src/features/subjects/detail/entryData.ts'
import { ind } from '../formRenderer/support.ts'

const name = ind({ id: 201, code: 'name', type: 'blank', display: 'input' })
const smoker = ind({
  id: 202,
  code: 'smoker',
  type: 'single',
  display: 'radio',
  options: [
    { code: '1', labelZh: '是', labelEn: 'Yes' },
    { code: '0', labelZh: '否', labelEn: 'No' },
  ],
})
const packs = ind({ id: 203, code: 'packs', type: 'blank', display: 'input', dependentFieldId: 202, dependentValue: '1' })
const drug = ind({ id: 204, code: 'drug', type: 'blank', display: 'input' })

const layout: Layout = {
  sections: [
    {
      key: 'base',
      title: '',
      repeating: false,
      items: [
        { indicatorId: name.id, required: true },
        { indicatorId: smoker.id, required: false },
        { indicatorId: packs.id, required: true },
      ],
    },
    { key: 'drugs', title: '', repeating: true, items: [{ indicatorId: drug.id, required: true }] },
  ],
}
const version: TemplateVersion = {
  id: 11,
  version: 1,
  state: 'published',
  publishedAt: null,
  templateId: 7,
  layout,
  indicators: [name, smoker, packs, drug].map((i) => ({ ...i, dependentCode: null })),
}
const record: RecordHead = {
  id: 90,
  templateId: 7,
  versionId: 11,
  slot: '',
  visitId: null,
  sampleId: null,
  status: 'saved',
  rev: 3,
  updatedAt: '2026-11-26 10:00:00',
  updatedBy: 'nurse',
}
const saved: FormInstance = {
  record,
  values: { '201': 'Ann', '202': '1', '203': '5' },
  rows: { drugs: [{ id: 500, rev: 2, values: { '204': 'aspirin' } }] },
  version,
}
const target = { studyId: 3, objectId: 40, templateId: 7, slot: '', recordId: 90, rev: 3 }

describe('entry data', () => {
  it('a new instance starts from the defaults with one row per sub form', () => {
    const data = toFormData({ ...saved, record: null, values: {}, rows: {} })
    expect(data.rows.drugs).toHaveLength(1)
    expect(rowIdentity(data.rows.drugs![0]!)).toBeNull()
  })

  it('a saved row keeps its id and rev through the renderer and back into the save', () => {
    const data = toFormData(saved)
    expect(rowIdentity(data.rows.drugs![0]!)).toEqual({ id: 500, rev: 2 })
    const save = toSave(version, { ...data, rows: { drugs: [...data.rows.drugs!, { '204': 'heparin' }] } }, target)
    expect(save.rows).toEqual({ drugs: [{ id: 500, rev: 2, values: { '204': 'aspirin' } }, { values: { '204': 'heparin' } }] })
    // The marker is never sent as a value, and the save passes the contract.
    expect(JSON.stringify(save)).not.toContain(rowKey)
    expect(formSave.safeParse(save).success).toBe(true)
    expect(save).toMatchObject({ recordId: 90, rev: 3, slot: '' })
  })

  it('a hidden field is not sent (the dependent-field rule)', () => {
    const data = toFormData(saved)
    const save = toSave(version, { ...data, values: { ...data.values, '202': '0' } }, target)
    expect(save.values).toEqual({ '201': 'Ann', '202': '0' })
  })

  it('a first save has no record id and needs no reason', () => {
    const fresh = { ...saved, record: null, values: {}, rows: {} }
    const save = toSave(version, { values: { '201': 'Bob' }, rows: { drugs: [] } }, { ...target, recordId: null, rev: 0 })
    expect(save.recordId).toBeUndefined()
    expect(changesSaved(fresh, save)).toBe(false)
  })

  it('a reason is needed when a saved value changes, is cleared, or a saved row goes', () => {
    const data = toFormData(saved)
    const same = toSave(version, data, target)
    expect(changesSaved(saved, same)).toBe(false)
    // A new value in an empty field is no change of saved data.
    expect(changesSaved({ ...saved, values: { '201': 'Ann', '202': '1' } }, same)).toBe(false)
    expect(changesSaved(saved, toSave(version, { ...data, values: { ...data.values, '201': 'Anna' } }, target))).toBe(true)
    expect(changesSaved(saved, toSave(version, { ...data, values: { ...data.values, '202': '0' } }, target))).toBe(true)
    expect(changesSaved(saved, toSave(version, { ...data, rows: { drugs: [] } }, target))).toBe(true)
    const rowEdited = { ...data.rows.drugs![0]!, '204': 'ibuprofen' }
    expect(changesSaved(saved, toSave(version, { ...data, rows: { drugs: [rowEdited] } }, target))).toBe(true)
    expect(toSave(version, data, target, 'typo').reason).toBe('typo')
  })

  it('without editData, saved values and saved rows are locked; empty fields and new rows stay open', () => {
    const instance = { ...saved, values: { '201': 'Ann', '202': '1' } }
    const data = toFormData(instance)
    const withNewRow = { ...data, rows: { drugs: [...data.rows.drugs!, { '204': '' }] } }
    const locked = savedLock(instance, withNewRow)
    expect(locked('f:201')).toBe(true)
    expect(locked('f:202')).toBe(true)
    // Packs was never saved: it is theirs to fill.
    expect(locked('f:203')).toBe(false)
    expect(locked('r:drugs:0:204')).toBe(true)
    expect(locked('r:drugs:0')).toBe(true)
    expect(locked('r:drugs:1:204')).toBe(false)
    expect(locked('r:drugs:1')).toBe(false)
    // A form not saved yet has nothing to lock.
    const fresh = { ...saved, record: null, values: {}, rows: {} }
    expect(savedLock(fresh, toFormData(fresh))('r:drugs:0')).toBe(false)
  })

  it('unsaved edits are told apart from what was loaded; empty and missing are alike', () => {
    const data = toFormData(saved)
    expect(differsFrom(data, toFormData(saved))).toBe(false)
    expect(differsFrom({ values: { a: '' }, rows: {} }, { values: {}, rows: {} })).toBe(false)
    expect(differsFrom({ values: { a: ['x', 'y'] }, rows: {} }, { values: { a: ['y', 'x'] }, rows: {} })).toBe(false)
    expect(differsFrom(data, { ...data, values: { ...data.values, '201': 'B' } })).toBe(true)
    expect(differsFrom(data, { ...data, rows: { drugs: [] } })).toBe(true)
  })

  it('differences between two forms: shown fields, rows by position, in layout order', () => {
    const a = toFormData(saved)
    const b = { values: { '201': 'Ann', '202': '0', '203': '5' }, rows: { drugs: [{ '204': 'aspirin' }, { '204': 'heparin' }] } }
    // smoker differs, packs is hidden in b (so it differs), the second row exists only in b.
    expect(differences(version, a, b)).toEqual([{ indicatorId: 202 }, { indicatorId: 203 }, { indicatorId: 204, section: 'drugs', row: 1 }])
    expect(differences(version, a, a)).toEqual([])
  })

  it('empty required fields, shown only, rows included', () => {
    const data = { values: { '202': '0' }, rows: { drugs: [{ '204': 'x' }, { '204': '' }] } }
    expect(emptyRequired(version, data)).toEqual([{ indicatorId: 201 }, { indicatorId: 204, section: 'drugs', row: 1 }])
    expect(emptyRequired(version, { ...data, values: { '202': '1' } })).toEqual([
      { indicatorId: 201 },
      { indicatorId: 203 },
      { indicatorId: 204, section: 'drugs', row: 1 },
    ])
  })
})
