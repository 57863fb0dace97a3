import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { studyFixture, type StudyFixture } from '../support/studyFixture.ts'

let s: StudyFixture
beforeAll(async () => {
  s = await studyFixture({ subjects: 12 })
}, 120_000)
afterAll(() => s.close())

describe('the study fixture', () => {
  it('builds the demo study small, and members limited to a center see only it', async () => {
    expect(s.demo.subjects).toBe(12)
    expect(s.centerIds).toHaveLength(3)
    const token = await s.member('onlyA', ['enterData'], { centers: [s.centerIds[0]!] })
    const res = await s.t.app.inject({
      method: 'GET',
      url: `/api/scientific/studyObject/centerList?studyId=${s.projectId}`,
      headers: { 'kr-d-token': token },
    })
    expect((res.json() as { data: { id: number }[] }).data.map((c) => c.id)).toEqual([s.centerIds[0]])
  })
})
