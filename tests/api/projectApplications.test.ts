import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Application, Member, ProjectRole } from '../../contract/projects.ts'
import { apiCalls, type Method, type Payload } from '../support/apiCalls.ts'
import { insertProject, type RowProject } from '../support/memberProjects.ts'
import { testApp, type TestApp } from '../support/testApp.ts'

/** Applications to join a project (multi-apply): apply, list, mine, approve with a role, refuse with a reason. */

let t: TestApp
let token: string
let pmId: number
let aliceId: number
let active: RowProject
let draft: RowProject
let crc: ProjectRole
const tokens = new Map<string, string>()
const { call, json, data } = apiCalls(
  () => t,
  () => token,
  '/api/',
)
async function as<T>(who: string, fn: () => Promise<T>): Promise<T> {
  const saved = token
  if (!tokens.has(who)) tokens.set(who, await t.signIn(who, 'Secret2024'))
  token = tokens.get(who)!
  try {
    return await fn()
  } finally {
    token = saved
  }
}

beforeAll(async () => {
  t = await testApp()
  pmId = await t.createUser('pm', 'Secret2024', { roles: ['researchAdmin'], name: 'Manager Pan' })
  aliceId = await t.createUser('alice', 'Secret2024', { roles: ['researcher'], name: 'Alice Wang' })
  await t.createUser('bob', 'Secret2024', { roles: ['researcher'], name: 'Bob Li' })
  await t.createUser('dave', 'Secret2024', { roles: ['researcher'], name: 'Dave Zhao' })
  active = await insertProject(t, { creatorId: pmId, status: 'active', name: 'Open study' })
  draft = await insertProject(t, { creatorId: pmId, status: 'draft' })
  token = await t.signIn('pm', 'Secret2024')
  crc = data<ProjectRole>(
    await call('POST', `projects/${active.id}/roles`, { name: 'CRC', authorities: ['enrol'], allQueues: true, allCenters: true }),
  )
})
afterAll(() => t?.close())

async function snapshot() {
  const db = t.db.kysely
  return {
    applications: await db.selectFrom('project_application').selectAll().orderBy('id').execute(),
    members: await db.selectFrom('project_member').selectAll().orderBy('id').execute(),
    audit: (
      await db
        .selectFrom('audit_log')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  }
}

async function refused(method: Method, url: string, payload: Payload | undefined, status: number, msg: { zh: string; en: string }) {
  const before = await snapshot()
  for (const lang of ['zh', 'en'] as const) {
    const res = await call(method, url, payload, lang)
    expect(res.statusCode, res.body).toBe(status)
    expect(json(res).msg).toBe(msg[lang])
  }
  expect(await snapshot()).toEqual(before)
}

const apply = (projectId: number, payload: Payload) => call('POST', `projects/${projectId}/applications`, payload)

describe('applications', () => {
  let aliceApplication: Application

  it('applies with a wished role and a reason, once at a time; the applicant sees it as theirs', async () => {
    await as('alice', async () => {
      aliceApplication = data<Application>(await apply(active.id, { roleId: crc.id, reason: 'I run the clinic' }))
      expect(aliceApplication).toMatchObject({
        projectId: active.id,
        projectName: 'Open study',
        userId: aliceId,
        name: 'Alice Wang',
        roleId: crc.id,
        roleName: 'CRC',
        reason: 'I run the clinic',
        status: 'pending',
        decidedBy: null,
        decidedAt: null,
      })
      await refused('POST', `projects/${active.id}/applications`, { reason: 'again' }, 409, {
        zh: '你已提交过申请，正在等待审批',
        en: 'You have already applied; your application awaits a decision',
      })
      expect(data<Application[]>(await call('GET', 'projects/applications/mine')).map((a) => a.id)).toEqual([aliceApplication.id])
    })
    const rows = await t.db.kysely.selectFrom('audit_log').where('action', '=', 'project.apply').selectAll().execute()
    expect(rows.map((r) => [r.object_type, r.object_id, r.outcome])).toEqual([['project', active.id, 'ok']])
  })

  it('refuses an application to a project that is not active, by a member, without a reason, with a foreign role', async () => {
    await as('bob', async () => {
      await refused('POST', `projects/${draft.id}/applications`, { reason: 'please' }, 409, {
        zh: '项目未启用，不能申请加入',
        en: 'The project is not active: one cannot apply to join it',
      })
      await refused('POST', `projects/${active.id}/applications`, { reason: '  ' }, 400, { zh: '请输入 原因', en: 'Please input reason' })
      await refused('POST', `projects/${active.id}/applications`, {}, 400, { zh: '请输入 原因', en: 'Please input reason' })
      await refused('POST', `projects/${active.id}/applications`, { roleId: draft.managerRoleId, reason: 'x' }, 400, {
        zh: `项目角色 ${draft.managerRoleId} 不存在`,
        en: `Project role ${draft.managerRoleId} does not exist`,
      })
      await refused('POST', `projects/999999/applications`, { reason: 'x' }, 404, {
        zh: '项目 999999 不存在',
        en: 'Project 999999 does not exist',
      })
    })
    await refused('POST', `projects/${active.id}/applications`, { reason: 'I made it' }, 409, {
      zh: '你已是该项目的成员',
      en: 'You are already a member of this project',
    })
  })

  it('lists applications for managers only', async () => {
    expect(data<Application[]>(await call('GET', `projects/${active.id}/applications`)).map((a) => a.name)).toEqual(['Alice Wang'])
    await as('alice', async () => {
      expect((await call('GET', `projects/${active.id}/applications`)).statusCode).toBe(403)
      expect((await call('POST', `projects/${active.id}/applications/${aliceApplication.id}/approve`, { roleId: crc.id })).statusCode).toBe(
        403,
      )
    })
  })

  it('approves with a role: the applicant becomes a member and the application is approved, together', async () => {
    const approved = data<Application>(
      await call('POST', `projects/${active.id}/applications/${aliceApplication.id}/approve`, { roleId: active.managerRoleId }),
    )
    expect(approved).toMatchObject({ status: 'approved', roleId: active.managerRoleId, roleName: '项目管理员', decidedBy: 'Manager Pan' })
    expect(approved.decidedAt).not.toBeNull()
    const members = data<Member[]>(await call('GET', `projects/${active.id}/members`))
    expect(members.find((m) => m.userId === aliceId)).toMatchObject({ roleId: active.managerRoleId })
    await refused('POST', `projects/${active.id}/applications/${aliceApplication.id}/approve`, { roleId: crc.id }, 409, {
      zh: '该申请已处理',
      en: 'This application has already been decided',
    })
    const rows = await t.db.kysely.selectFrom('audit_log').where('action', '=', 'project.application.approve').selectAll().execute()
    expect(rows.map((r) => [r.object_type, r.object_id])).toEqual([['project', active.id]])
  })

  it('writes neither the member nor the decision when the approval fails', async () => {
    const bobApplication = await as('bob', async () => data<Application>(await apply(active.id, { reason: 'me too' })))
    await refused('POST', `projects/${active.id}/applications/${bobApplication.id}/approve`, { roleId: draft.managerRoleId }, 400, {
      zh: `项目角色 ${draft.managerRoleId} 不存在`,
      en: `Project role ${draft.managerRoleId} does not exist`,
    })
    await refused('POST', `projects/${active.id}/applications/${bobApplication.id}/approve`, {}, 400, {
      zh: '请输入 roleId',
      en: 'Please input roleId',
    })
    // Added directly meanwhile: the approval adds nothing and leaves the application pending.
    const bobId = (await t.db.kysely.selectFrom('app_user').where('name', '=', 'Bob Li').select('id').executeTakeFirstOrThrow()).id
    const direct = data<Member>(await call('POST', `projects/${active.id}/members`, { userId: bobId, roleId: crc.id }))
    await refused('POST', `projects/${active.id}/applications/${bobApplication.id}/approve`, { roleId: crc.id }, 409, {
      zh: '用户“Bob Li”已是项目成员',
      en: 'User "Bob Li" is already a member of the project',
    })
    data(await call('DELETE', `projects/${active.id}/members/${direct.id}`))
    await refused('POST', `projects/${active.id}/applications/999999/approve`, { roleId: crc.id }, 404, {
      zh: '申请 999999 不存在',
      en: 'Application 999999 does not exist',
    })
  })

  it('refuses an application only with a reason, which the applicant then reads', async () => {
    const dave = await as('dave', async () => data<Application>(await apply(active.id, { reason: 'curious' })))
    await refused('POST', `projects/${active.id}/applications/${dave.id}/refuse`, { reason: '' }, 400, {
      zh: '请输入 原因',
      en: 'Please input reason',
    })
    await refused('POST', `projects/${active.id}/applications/${dave.id}/refuse`, {}, 400, {
      zh: '请输入 原因',
      en: 'Please input reason',
    })
    const refusedOne = data<Application>(
      await call('POST', `projects/${active.id}/applications/${dave.id}/refuse`, { reason: 'Not in the study team' }),
    )
    expect(refusedOne).toMatchObject({ status: 'refused', decisionReason: 'Not in the study team', decidedBy: 'Manager Pan' })
    await refused('POST', `projects/${active.id}/applications/${dave.id}/refuse`, { reason: 'again' }, 409, {
      zh: '该申请已处理',
      en: 'This application has already been decided',
    })
    await as('dave', async () => {
      const mine = data<Application[]>(await call('GET', 'projects/applications/mine'))
      expect(mine).toEqual([expect.objectContaining({ id: dave.id, status: 'refused', decisionReason: 'Not in the study team' })])
      // Refused, one may apply again.
      expect(data<Application>(await apply(active.id, { reason: 'second try' })).status).toBe('pending')
    })
    const rows = await t.db.kysely.selectFrom('audit_log').where('action', '=', 'project.application.refuse').selectAll().execute()
    expect(rows.map((r) => [r.object_type, r.object_id, JSON.parse(r.detail).reason])).toEqual([
      ['project', active.id, 'Not in the study team'],
    ])
  })

  it('approves only with a role within the approver’s own: a member who manages people but cannot configure gives no manager role', async () => {
    const erinId = await t.createUser('erin', 'Secret2024', { roles: ['researchAdmin'], name: 'Erin Lead' })
    const lead = data<ProjectRole>(
      await call('POST', `projects/${active.id}/roles`, {
        name: 'People lead',
        authorities: ['manageMembers', 'enrol'],
        allQueues: true,
        allCenters: true,
      }),
    )
    data(await call('POST', `projects/${active.id}/members`, { userId: erinId, roleId: lead.id }))
    const second = data<Application[]>(await call('GET', `projects/${active.id}/applications`)).find((a) => a.status === 'pending')!
    await as('erin', async () => {
      for (const lang of ['zh', 'en'] as const) {
        const res = await call('POST', `projects/${active.id}/applications/${second.id}/approve`, { roleId: active.managerRoleId }, lang)
        expect(res.statusCode, res.body).toBe(403)
        expect(json(res).msg).toBe(
          lang === 'zh'
            ? '不能授予超出您自己项目角色的权限：项目配置'
            : 'You may not grant more than your own project role holds: Configure the project',
        )
      }
      expect(data<Application[]>(await call('GET', `projects/${active.id}/applications`)).find((a) => a.id === second.id)?.status).toBe(
        'pending',
      )
      const approved = data<Application>(await call('POST', `projects/${active.id}/applications/${second.id}/approve`, { roleId: crc.id }))
      expect(approved).toMatchObject({ status: 'approved', roleId: crc.id, decidedBy: 'Erin Lead' })
    })
    const denied = await t.db.kysely
      .selectFrom('audit_log')
      .where('action', '=', 'project.application.approve')
      .where('outcome', '=', 'denied')
      .selectAll()
      .execute()
    expect(denied).toHaveLength(2)
  })
})
