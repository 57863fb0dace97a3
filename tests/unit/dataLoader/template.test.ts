import { describe, expect, it } from 'vitest'
import { cellToValue } from '../../../server/services/dataLoader/layout.ts'
import { fieldNote, listEntries } from '../../../server/services/dataLoader/template.ts'
import { versionField } from '../../support/versionField.ts'

/** What a template's drop-down offers must read back as the choice's code (layout.ts cellToValue). */

const field = versionField

describe('listEntries', () => {
  it('offers the labels in the chosen language, falling back to the other one, and they read back as codes', () => {
    const f = field({
      options: [
        { code: '1', labelZh: '男', labelEn: 'Male' },
        { code: '2', labelZh: '女', labelEn: '' },
      ],
    })
    expect(listEntries(f, 'zh')).toEqual(['男', '女'])
    expect(listEntries(f, 'en')).toEqual(['Male', '女'])
    for (const lang of ['zh', 'en'] as const) expect(listEntries(f, lang).map((e) => cellToValue(f, e))).toEqual(['1', '2'])
  })

  it('offers the codes when labels repeat, are missing, or are some choice’s code', () => {
    const twice = field({
      options: [
        { code: 'a', labelZh: '是', labelEn: 'Yes' },
        { code: 'b', labelZh: '是', labelEn: 'Yes' },
      ],
    })
    const blank = field({
      options: [
        { code: 'a', labelZh: '', labelEn: '' },
        { code: 'b', labelZh: '乙', labelEn: 'B' },
      ],
    })
    const crossed = field({
      options: [
        { code: '1', labelZh: '2', labelEn: '2' },
        { code: '2', labelZh: '1', labelEn: '1' },
      ],
    })
    expect(listEntries(twice, 'en')).toEqual(['a', 'b'])
    expect(listEntries(blank, 'en')).toEqual(['a', 'b'])
    expect(listEntries(crossed, 'zh')).toEqual(['1', '2'])
    expect(listEntries(crossed, 'zh').map((e) => cellToValue(crossed, e))).toEqual(['1', '2'])
  })
})

describe('fieldNote', () => {
  it('names type, unit, range, format, choices and required in the chosen language', () => {
    expect(fieldNote(field({ type: 'blank', display: 'input', dataType: 'decimal', unit: 'kg', minimum: 0 }), false, 'en')).toBe(
      'Type: decimal\nUnit: kg\nMinimum: 0',
    )
    expect(fieldNote(field({ type: 'date', display: 'input', dateFormat: 'YYYY-MM' }), true, 'zh')).toBe('类型：日期\n格式：YYYY-MM\n必填')
    const multi = field({ type: 'multiple', display: 'checkbox', options: [{ code: 'x', labelZh: '甲', labelEn: 'X' }] })
    expect(fieldNote(multi, false, 'en')).toBe('Type: multiple choice\nChoices (code or label):\nx=X\nSeveral allowed, separated by |')
  })
})
