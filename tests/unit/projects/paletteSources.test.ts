/**
 * The palette's project sources: 'projects' opens a project's detail, 'currentProject' switches
 * to it; both search both lists (multi- and single-center) by a name or number prefix, by name.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest'
import type { ProjectRow } from '../../../contract/projects.ts'

const listProjects = vi.fn()
vi.mock('../../../src/features/projects/api/listProjects.ts', () => ({ listProjects }))

const { paletteSources, projectRecord, recordLimit } = await import('../../../src/app/paletteSources.ts')

const row = (over: Partial<ProjectRow>): ProjectRow => ({
  id: 5,
  scope: 'multi',
  type: 'prospective',
  name: '肺癌队列',
  number: 'LC-01',
  testStage: null,
  diseaseId: 2,
  diseaseName: '肺癌',
  diseaseNameEn: 'Lung cancer',
  status: 'active',
  randomMethod: 'none',
  blinded: 'open',
  plannedQuantity: 100,
  subjectCount: 3,
  creatorName: 'admin',
  myRole: null,
  createdAt: '2026-11-28T00:00:00.000Z',
  updatedAt: '2026-11-28T00:00:00.000Z',
  ...over,
})

beforeEach(() => {
  listProjects.mockReset()
  listProjects.mockImplementation(({ scope }: { scope: string }) =>
    Promise.resolve({
      rows: scope === 'multi' ? [row({})] : [row({ id: 9, scope: 'single', name: 'Single', number: 'S-9', diseaseName: null })],
      next: null,
      total: 1,
    }),
  )
})

describe('project records of the palette', () => {
  it('a project reads as number and name, its disease in the reader language, and opens its detail', () => {
    expect(projectRecord(row({}), 'en')).toEqual({
      id: 'project-5',
      title: 'LC-01 · 肺癌队列',
      alt: 'Lung cancer',
      path: '/project/multi-detail?id=5',
    })
    expect(projectRecord(row({ myRole: 'Data entry' }), 'zh').alt).toBe('肺癌 · Data entry')
    expect(projectRecord(row({ diseaseName: null }), 'zh').alt).toBeUndefined()
  })

  it('searches both lists by the typed prefix, sorted by name, within the record limit', async () => {
    const found = await paletteSources.projects!.search(' lc ', 'en', new AbortController().signal)
    expect(found.map((r) => r.id)).toEqual(['project-5', 'project-9'])
    expect(listProjects).toHaveBeenCalledTimes(2)
    for (const scope of ['multi', 'single'])
      expect(listProjects).toHaveBeenCalledWith(
        { scope, q: 'lc', limit: recordLimit / 2, sort: 'name', order: 'asc' },
        expect.objectContaining({ toast: false }),
      )
    expect(found.every((r) => r.command === undefined)).toBe(true)
  })

  it('the switch source runs the switch command with the project instead of opening it', async () => {
    const found = await paletteSources.currentProject!.search('', 'zh', new AbortController().signal)
    expect(found[0]?.command).toEqual({ id: 'projects.switch', args: { id: 5, name: '肺癌队列', number: 'LC-01' } })
    expect(found[1]?.command).toEqual({ id: 'projects.switch', args: { id: 9, name: 'Single', number: 'S-9' } })
  })
})
