import { describe, expect, it } from 'vitest'
import type { Template } from '../../../contract/crf.ts'
import { sortTemplates } from '../../../src/features/templates/sortTemplates.ts'

const row = (id: number, name: string, indexCount: number, updatedAt: string): Template => ({
  id,
  kind: 'crf',
  name,
  description: '',
  collectType: 'all',
  preposeIds: [],
  status: 1,
  indexCount,
  draft: null,
  published: null,
  updatedAt,
})

const rows = [
  row(1, 'Beta', 3, '2024-03-01T10:00:00Z'),
  row(2, 'alpha', 10, '2024-01-15T08:00:00Z'),
  row(3, 'Gamma', 3, '2024-05-20T12:30:00Z'),
  row(4, 'Alpha', 0, '2024-03-01T10:00:00Z'),
]
const ids = (list: Template[]) => list.map((r) => r.id)

describe('sorting the template list on the client', () => {
  it('sorts by name, either way', () => {
    const asc = sortTemplates(rows, 'name', 'asc').map((r) => r.name.toLowerCase())
    expect(asc).toEqual(['alpha', 'alpha', 'beta', 'gamma'])
    expect(sortTemplates(rows, 'name', 'desc').map((r) => r.name)[0]).toBe('Gamma')
  })
  it('sorts by updated time, ties by id', () => {
    expect(ids(sortTemplates(rows, 'updatedAt', 'asc'))).toEqual([2, 1, 4, 3])
    expect(ids(sortTemplates(rows, 'updatedAt', 'desc'))).toEqual([3, 1, 4, 2])
  })
  it('sorts by index count numerically, ties by id', () => {
    expect(ids(sortTemplates(rows, 'indexCount', 'asc'))).toEqual([4, 1, 3, 2])
    expect(ids(sortTemplates(rows, 'indexCount', 'desc'))).toEqual([2, 1, 3, 4])
  })
  it('keeps the given order for an unknown key and never changes its input', () => {
    const before = ids(rows)
    expect(ids(sortTemplates(rows, 'status', 'desc'))).toEqual(before)
    sortTemplates(rows, 'name', 'desc')
    expect(ids(rows)).toEqual(before)
  })
})
