import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ProjectRole } from '../../contract/projects.ts'
import type { StudyCenter, StudyGroup } from '../../contract/studyObject.ts'
import { scopeConditions } from '../../server/db/scope.ts'
import { actorOf, withMemberships } from '../../server/services/actor.ts'
import { authenticate } from '../../server/services/auth.ts'
import { projectScope } from '../../server/services/policy.ts'
import { apiCalls } from '../support/apiCalls.ts'
import { insertCenter, insertProject, type RowProject } from '../support/memberProjects.ts'
import { testApp, type TestApp } from '../support/testApp.ts'

/**
 * The project scope (issue 9 item 4): a member of center A reads nothing of center B. The SPEC
 * studyObject lists (getStudyGroupList, centerList) answer the queues and centers the caller's
 * project role grants, the scope inside their SQL; the same scope limits research objects.
 */

let t: TestApp
let token: string
let pmToken: string
let aliceToken: string
let aliceId: number
let p: RowProject
let other: RowProject
let centerA: number
let centerB: number
let crcA: ProjectRole
const { call, json, data } = apiCalls(
  () => t,
  () => token,
  '/api/',
)
const groups = async (studyId: number) =>
  data<StudyGroup[]>(await call('GET', `scientific/studyObject/getStudyGroupList?studyId=${studyId}`)).map((g) => g.key)
const centers = async (studyId: number, centerId?: number) =>
  data<StudyCenter[]>(
    await call('GET', `scientific/studyObject/centerList?studyId=${studyId}${centerId === undefined ? '' : `&centerId=${centerId}`}`),
  ).map((c) => c.code)

beforeAll(async () => {
  t = await testApp()
  const pmId = await t.createUser('pm', 'Secret2024', { roles: ['researchAdmin'] })
  aliceId = await t.createUser('alice', 'Secret2024', { roles: ['researcher'] })
  await t.createUser('root', 'Secret2024')
  centerA = await insertCenter(t, 'A')
  centerB = await insertCenter(t, 'B')
  p = await insertProject(t, { creatorId: pmId, status: 'active', queues: ['QA', 'QB'], centerIds: [centerA, centerB] })
  other = await insertProject(t, { creatorId: pmId, status: 'active', queues: ['QX'], centerIds: [centerB] })
  pmToken = await t.signIn('pm', 'Secret2024')
  aliceToken = await t.signIn('alice', 'Secret2024')
  token = pmToken
  crcA = data<ProjectRole>(
    await call('POST', `projects/${p.id}/roles`, {
      name: 'CRC A',
      authorities: ['enrol', 'enterData'],
      queueIds: [p.queueIds[0]],
      centerIds: [centerA],
    }),
  )
  data(await call('POST', `projects/${p.id}/members`, { userId: aliceId, roleId: crcA.id }))
  // Research objects in both centers and queues.
  const at = new Date().toISOString()
  const [qa, qb] = p.queueIds as [number, number]
  const placed: [number, number][] = [
    [qa, centerA],
    [qa, centerB],
    [qb, centerA],
    [qb, centerB],
  ]
  for (const [i, [queue_id, center_id]] of placed.entries()) {
    await t.db.kysely
      .insertInto('subject')
      .values({ project_id: p.id, queue_id, center_id, subject_no: `S${i}`, created_by: pmId, created_at: at, updated_at: at })
      .execute()
  }
})
afterAll(() => t?.close())

/** The research objects the scope of `subject.groupList` admits for the holder of `tok`, by the SQL condition alone. */
async function visibleSubjects(tok: string, projectId: number): Promise<string[]> {
  const actor = await withMemberships(t.db.kysely, await actorOf(t.db.kysely, await authenticate(t.app.ctx, tok)))
  const scope = projectScope(actor, 'subject.groupList', projectId)
  const rows = await t.db.kysely
    .selectFrom('subject as s')
    .where((eb) => eb.and(scopeConditions(scope, { project: 's.project_id', queue: 's.queue_id', center: 's.center_id' })))
    .select('s.subject_no')
    .orderBy('s.subject_no')
    .execute()
  return rows.map((r) => r.subject_no)
}

describe('project scope', () => {
  it('answers a manager every queue and center of the project', async () => {
    token = pmToken
    expect(await groups(p.id)).toEqual(['QA', 'QB'])
    expect(await centers(p.id)).toEqual(['A', 'B'])
    expect(await visibleSubjects(pmToken, p.id)).toEqual(['S0', 'S1', 'S2', 'S3'])
  })

  it('answers a member of center A only queue QA and center A, and nothing of B when naming it', async () => {
    token = aliceToken
    expect(await groups(p.id)).toEqual(['QA'])
    expect(await centers(p.id)).toEqual(['A'])
    expect(await centers(p.id, centerA)).toEqual(['A'])
    expect(await centers(p.id, centerB)).toEqual([])
    // Research objects: only those of queue QA in center A.
    expect(await visibleSubjects(aliceToken, p.id)).toEqual(['S0'])
  })

  it('refuses a member of one project on another project (403), and sees nothing of it', async () => {
    token = aliceToken
    for (const path of ['getStudyGroupList', 'centerList']) {
      const res = await call('GET', `scientific/studyObject/${path}?studyId=${other.id}`, undefined, 'en')
      expect(res.statusCode).toBe(403)
      expect(json(res).msg).toBe('You are not allowed to do this')
    }
    expect(await visibleSubjects(aliceToken, other.id)).toEqual([])
  })

  it('follows a change of the role on the next request', async () => {
    token = pmToken
    data(
      await call('PUT', `projects/${p.id}/roles/${crcA.id}`, {
        name: 'CRC A',
        authorities: ['enrol'],
        allQueues: true,
        centerIds: [centerB],
      }),
    )
    token = aliceToken
    expect(await groups(p.id)).toEqual(['QA', 'QB'])
    expect(await centers(p.id)).toEqual(['B'])
    expect(await centers(p.id, centerA)).toEqual([])
    expect(await visibleSubjects(aliceToken, p.id)).toEqual(['S1', 'S3'])
  })

  it('refuses a missing or wrong-typed studyId in zh and en', async () => {
    token = aliceToken
    for (const [query, zh, en] of [
      ['', '请输入 项目ID', 'Please input project id'],
      ['?studyId=abc', '项目ID 的类型不正确，应为整数', 'project id has the wrong type; expected an integer'],
    ] as const) {
      expect(json(await call('GET', `scientific/studyObject/centerList${query}`, undefined, 'zh')).msg).toBe(zh)
      const res = await call('GET', `scientific/studyObject/getStudyGroupList${query}`, undefined, 'en')
      expect(res.statusCode).toBe(400)
      expect(json(res).msg).toBe(en)
    }
  })

  it('answers a system administrator every queue and center without a membership', async () => {
    token = await t.signIn('root', 'Secret2024')
    expect(await groups(other.id)).toEqual(['QX'])
    expect(await centers(other.id)).toEqual(['B'])
  })
})
