import { describe, expect, it } from 'vitest'
import { filterOpsFor, filterValueSpelling } from '../../../contract/subjectList.ts'

describe("the subject list's filter operators and values", () => {
  it('offers "has option" only where a field holds several choices', () => {
    expect(filterOpsFor({ key: 'f1', type: 'multiple' })).toEqual(['has', 'empty', 'notEmpty'])
    for (const c of [
      { key: 'subjectNo', type: null },
      { key: 'enrolledAt', type: null },
      { key: 'updatedAt', type: null },
      { key: 'f2', type: 'date' },
      { key: 'f3', type: 'blank' },
      { key: 'f4', type: 'single' },
    ] as const)
      expect(filterOpsFor(c), c.key).not.toContain('has')
    // A subject always has a number and an enrolment time: no emptiness test.
    expect(filterOpsFor({ key: 'subjectNo', type: null })).not.toContain('empty')
    expect(filterOpsFor({ key: 'enrolledAt', type: null })).toEqual(['gte', 'lte', 'prefix'])
  })

  it('reads a day typed into a time column or a date field as date entry does; other text trimmed', () => {
    expect(filterValueSpelling({ key: 'enrolledAt', type: null }, '2026/6/1')).toBe('2026-06-01')
    expect(filterValueSpelling({ key: 'updatedAt', type: null }, ' 2026/6/1 8:05 ')).toBe('2026-06-01 08:05')
    expect(filterValueSpelling({ key: 'f2', type: 'date' }, '２０２６／６／１')).toBe('2026-06-01')
    expect(filterValueSpelling({ key: 'enrolledAt', type: null }, '2026-06')).toBe('2026-06')
    expect(filterValueSpelling({ key: 'subjectNo', type: null }, ' SH02/1 ')).toBe('SH02/1')
  })
})
