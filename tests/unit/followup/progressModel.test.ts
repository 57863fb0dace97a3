/** The numbers behind the progress charts and tables (issue 10 item 10). */
import { describe, expect, it } from 'vitest'
import { addDays, visitState, type ProgressView } from '../../../contract/followUp.ts'
import {
  clipToWidth,
  completion,
  crossTable,
  monthRows,
  monthsBetween,
  niceTicks,
  queueTotal,
  rateBand,
} from '../../../src/features/followup/progressModel.ts'

const view: ProgressView = {
  plannedQuantity: 100,
  wholeProject: true,
  enrolled: 6,
  centers: [
    { id: 1, code: 'BJ', nameZh: '北京', nameEn: 'Beijing' },
    { id: 2, code: 'SH', nameZh: '上海', nameEn: '' },
  ],
  queues: [
    { id: 10, name: 'A' },
    { id: 11, name: 'B' },
  ],
  enrolment: [
    { month: '2025-11', centerId: 1, queueId: 10, count: 2 },
    { month: '2025-11', centerId: 2, queueId: 11, count: 1 },
    { month: '2026-02', centerId: 1, queueId: 11, count: 3 },
  ],
  today: '2026-03-01',
  forms: [],
}

describe('progress model', () => {
  it('fills the months without enrolment across a year end and accumulates', () => {
    expect(monthsBetween('2025-11', '2026-02')).toEqual(['2025-11', '2025-12', '2026-01', '2026-02'])
    const rows = monthRows(view)
    expect(rows.map((r) => [r.month, r.count, r.cumulative])).toEqual([
      ['2025-11', 3, 3],
      ['2025-12', 0, 3],
      ['2026-01', 0, 3],
      ['2026-02', 3, 6],
    ])
    expect(rows[0]!.byCenter.get(2)).toBe(1)
    expect(monthRows({ ...view, enrolment: [] })).toEqual([])
  })

  it('counts per center and queue, per center, per queue', () => {
    const cell = crossTable(view)
    expect([cell(1, 10), cell(1, 11), cell(2, 10), cell(1, null), cell(2, null)]).toEqual([2, 3, 0, 5, 1])
    expect([queueTotal(view, 10), queueTotal(view, 11)]).toEqual([2, 4])
  })

  it('completion counts saved and signed records against the expected, capped at 100; none when per sample', () => {
    const f = { templateId: 1, name: 'F', collectType: 'object', basis: 'subjects' as const, expected: 8, saved: 3, signed: 1 }
    expect(completion(f)).toBe(50)
    expect(completion({ ...f, saved: 20 })).toBe(100)
    expect(completion({ ...f, expected: null })).toBeNull()
    expect(completion({ ...f, expected: 0 })).toBeNull()
  })

  it('colours change at 30, 70 and 100 percent (SPEC §9)', () => {
    expect([0, 29, 30, 69, 70, 99, 100].map(rateBand)).toEqual(['low', 'low', 'mid', 'mid', 'high', 'high', 'full'])
  })

  it('chart labels are cut to the room by the width measured, with an ellipsis', () => {
    // A font whose Chinese characters are 11 wide and whose Latin ones are 7.
    const measure = (s: string) => [...s].reduce((w, c) => w + (/[\u4e00-\u9fff（）…]/.test(c) ? 11 : 7), 0)
    expect(clipToWidth('示范北京医院（虚构）', 110, measure)).toBe('示范北京医院（虚构）')
    expect(clipToWidth('示范北京医院（虚构）', 109, measure)).toBe('示范北京医院（虚…')
    const cut = clipToWidth('Demo Beijing Hospital (fictional)', 194, measure)
    expect(cut).toBe('Demo Beijing Hospital (fic…')
    expect(measure(cut)).toBeLessThanOrEqual(194)
    expect(clipToWidth('Demo', 10, measure)).toBe('…')
  })

  it('axis ticks step by 1, 2, 2.5 or 5 × 10^n and end at the first tick at or above the value', () => {
    const ends = (max: number) => {
      const ticks = niceTicks(max)
      return [ticks[1], ticks.at(-1)]
    }
    // A plan of 1,200 ends the axis at 1,200, not 2,000.
    expect(niceTicks(1200)).toEqual([0, 200, 400, 600, 800, 1000, 1200])
    expect([1250, 1201, 321, 101, 40, 20, 12, 7, 3, 1].map(ends)).toEqual([
      [250, 1250],
      [250, 1250],
      [100, 400],
      [20, 120],
      [10, 40],
      [5, 20],
      [2, 12],
      [2, 8],
      [1, 3],
      [1, 1],
    ])
    expect(niceTicks(0)).toEqual([0, 1])
    // Counts: no step of 2.5.
    expect(niceTicks(9).every(Number.isInteger)).toBe(true)
  })
})

describe('visit dates and states', () => {
  it('adds days across months and leap years', () => {
    expect(addDays('2024-02-27', 3)).toBe('2024-03-01')
    expect(addDays('2026-01-05', -7)).toBe('2025-12-29')
  })

  it('upcoming before the window, due inside it (both ends), overdue after, done whenever entered', () => {
    const w = { start: '2026-03-10', end: '2026-03-14' }
    expect(['2026-03-09', '2026-03-10', '2026-03-14', '2026-03-15'].map((d) => visitState(w, d, false))).toEqual([
      'upcoming',
      'due',
      'due',
      'overdue',
    ])
    expect(visitState(w, '2026-03-20', true)).toBe('done')
  })
})
