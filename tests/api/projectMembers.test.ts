import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { projectAuthorities, type Candidate, type Member, type ProjectRole } from '../../contract/projects.ts'
import { apiCalls, type Method, type Payload } from '../support/apiCalls.ts'
import { insertCenter, insertProject, type RowProject } from '../support/memberProjects.ts'
import { testApp, type TestApp } from '../support/testApp.ts'

/** Project roles and members (issue 9 item 4): grants only of this project, the manager role kept, the last manager kept. */

let t: TestApp
let token: string
let pmId: number
let aliceId: number
let bobId: number
let carolId: number
let ra2Id: number
let p: RowProject
let other: RowProject
let outsideCenter: number
let projectCenters: number[]
const { call, json, data } = apiCalls(
  () => t,
  () => token,
  '/api/',
)
const as = async <T>(who: string, fn: () => Promise<T>): Promise<T> => {
  const saved = token
  token = await t.signIn(who, 'Secret2024')
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
  bobId = await t.createUser('bob', 'Secret2024', { roles: ['researcher'], name: 'Bob Li' })
  carolId = await t.createUser('carol', 'Secret2024', { roles: ['researcher'], name: 'Carol Disabled', status: 0 })
  ra2Id = await t.createUser('ra2', 'Secret2024', { roles: ['researchAdmin'], name: 'Other Admin' })
  const [c1, c2] = [await insertCenter(t, 'C1'), await insertCenter(t, 'C2')]
  outsideCenter = await insertCenter(t, 'C3')
  projectCenters = [c1, c2]
  p = await insertProject(t, { creatorId: pmId, queues: ['A', 'B'], centerIds: [c1, c2] })
  other = await insertProject(t, { creatorId: pmId, queues: ['X'] })
  token = await t.signIn('pm', 'Secret2024')
})
afterAll(() => t?.close())

const roles = () => call('GET', `projects/${p.id}/roles`).then((r) => data<ProjectRole[]>(r))
const members = () => call('GET', `projects/${p.id}/members`).then((r) => data<Member[]>(r))
const role = (input: Payload) => ({ remarks: '', authorities: ['enrol', 'enterData'], blinded: false, ...input })

/** What a refused write must leave as it was: roles with their grants, members, the audit log. */
async function snapshot() {
  const db = t.db.kysely
  return {
    roles: await db.selectFrom('project_role').selectAll().orderBy('id').execute(),
    queues: await db.selectFrom('project_role_queue').selectAll().orderBy('role_id').orderBy('queue_id').execute(),
    centers: await db.selectFrom('project_role_center').selectAll().orderBy('role_id').orderBy('center_id').execute(),
    members: await db.selectFrom('project_member').selectAll().orderBy('id').execute(),
    audit: (
      await db
        .selectFrom('audit_log')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  }
}

/** Refused in both languages with the given messages, and nothing changed. */
async function refused(method: Method, url: string, payload: Payload | undefined, status: number, msg: { zh: string; en: string }) {
  const before = await snapshot()
  for (const lang of ['zh', 'en'] as const) {
    const res = await call(method, url, payload, lang)
    expect(res.statusCode, res.body).toBe(status)
    expect(json(res).msg).toBe(msg[lang])
  }
  expect(await snapshot()).toEqual(before)
}

describe('project roles', () => {
  it('lists the manager role with every authority, queue and center and its one member', async () => {
    expect(await roles()).toEqual([
      {
        id: p.managerRoleId,
        name: '项目管理员',
        remarks: '',
        authorities: [...projectAuthorities],
        blinded: false,
        allQueues: true,
        queueIds: [],
        allCenters: true,
        centerIds: [],
        builtin: 'manager',
        memberCount: 1,
      },
    ])
  })

  it('creates and edits a role limited to chosen queues and centers, audited on the project', async () => {
    const created = data<ProjectRole>(
      await call('POST', `projects/${p.id}/roles`, role({ name: 'CRC', queueIds: [p.queueIds[0]], centerIds: [p.centerIds[0]] })),
    )
    expect(created).toMatchObject({ name: 'CRC', allQueues: false, queueIds: [p.queueIds[0]], centerIds: [p.centerIds[0]], memberCount: 0 })
    const edited = data<ProjectRole>(
      await call(
        'PUT',
        `projects/${p.id}/roles/${created.id}`,
        role({
          name: 'CRC',
          authorities: ['export', 'enrol', 'enrol'],
          blinded: true,
          allQueues: true,
          queueIds: [p.queueIds[1]],
          centerIds: p.centerIds,
        }),
      ),
    )
    // In the contract's order, once each; all queues means no list.
    expect(edited).toMatchObject({ authorities: ['enrol', 'export'], blinded: true, allQueues: true, queueIds: [], centerIds: p.centerIds })
    expect(await t.db.kysely.selectFrom('project_role_queue').where('role_id', '=', created.id).selectAll().execute()).toEqual([])
    const rows = await t.db.kysely
      .selectFrom('audit_log')
      .where('action', 'in', ['project.role.create', 'project.role.update'])
      .selectAll()
      .orderBy('id')
      .execute()
    expect(rows.map((r) => [r.action, r.object_type, r.object_id, r.outcome])).toEqual([
      ['project.role.create', 'project', p.id, 'ok'],
      ['project.role.update', 'project', p.id, 'ok'],
    ])
  })

  it('refuses a member role granting a queue or a center of another project, in zh and en, nothing changed', async () => {
    const [foreignQueue] = other.queueIds
    await refused('POST', `projects/${p.id}/roles`, role({ name: 'Spy', queueIds: [p.queueIds[0], foreignQueue] }), 400, {
      zh: `队列 ${foreignQueue} 不是本项目的队列`,
      en: `Queue ${foreignQueue} is not a queue of this project`,
    })
    const crc = (await roles()).find((r) => r.name === 'CRC')!
    await refused('PUT', `projects/${p.id}/roles/${crc.id}`, role({ name: 'CRC', queueIds: [foreignQueue] }), 400, {
      zh: `队列 ${foreignQueue} 不是本项目的队列`,
      en: `Queue ${foreignQueue} is not a queue of this project`,
    })
    await refused('POST', `projects/${p.id}/roles`, role({ name: 'Spy', centerIds: [outsideCenter] }), 400, {
      zh: `中心 ${outsideCenter} 不是本项目的中心`,
      en: `Center ${outsideCenter} is not a center of this project`,
    })
  })

  it('refuses missing or wrong-typed fields, an unknown authority and a taken name, nothing changed', async () => {
    await refused('POST', `projects/${p.id}/roles`, role({}), 400, { zh: '请输入 name', en: 'Please input name' })
    await refused('POST', `projects/${p.id}/roles`, role({ name: 'X', blinded: 'yes' }), 400, {
      zh: 'blinded 的类型不正确，应为布尔值（true 或 false）',
      en: 'blinded has the wrong type; expected true or false',
    })
    await refused('POST', `projects/${p.id}/roles`, role({ name: 'X', authorities: ['fly'] }), 400, {
      zh: 'authorities.0 的值不合法，应为以下之一：configure、manageMembers、enrol、enterData、editData、delete、sign、export、identifiers、unblind',
      en: 'authorities.0 must be one of: configure, manageMembers, enrol, enterData, editData, delete, sign, export, identifiers, unblind',
    })
    await refused('POST', `projects/${p.id}/roles`, role({ name: 'CRC' }), 409, {
      zh: '项目角色“CRC”已存在',
      en: 'Project role "CRC" already exists',
    })
    await refused('PUT', `projects/${p.id}/roles/999999`, role({ name: 'Z' }), 404, {
      zh: '项目角色 999999 不存在',
      en: 'Project role 999999 does not exist',
    })
    // A role of another project is no role of this one.
    await refused('PUT', `projects/${p.id}/roles/${other.managerRoleId}`, role({ name: 'Z' }), 404, {
      zh: `项目角色 ${other.managerRoleId} 不存在`,
      en: `Project role ${other.managerRoleId} does not exist`,
    })
  })

  it('keeps the manager role whole: it cannot be narrowed or deleted, though it can be renamed', async () => {
    const full = {
      name: '项目管理员',
      remarks: '',
      authorities: [...projectAuthorities],
      blinded: false,
      allQueues: true,
      allCenters: true,
    }
    const narrowed = {
      zh: '项目管理员角色拥有全部功能权限、队列和中心，不能缩减',
      en: 'The project manager role keeps every authority, queue and center; it cannot be narrowed',
    }
    const url = `projects/${p.id}/roles/${p.managerRoleId}`
    await refused('PUT', url, { ...full, authorities: ['configure'] }, 400, narrowed)
    await refused('PUT', url, { ...full, allQueues: false, queueIds: [p.queueIds[0]] }, 400, narrowed)
    await refused('PUT', url, { ...full, allCenters: false }, 400, narrowed)
    await refused('PUT', url, { ...full, blinded: true }, 400, narrowed)
    await refused('DELETE', url, undefined, 409, { zh: '项目管理员角色不能删除', en: 'The project manager role cannot be deleted' })
    expect(data<ProjectRole>(await call('PUT', url, { ...full, remarks: 'PI' }))).toMatchObject({ remarks: 'PI', builtin: 'manager' })
  })

  it('refuses to delete a role members hold, with the count; deletes it once free', async () => {
    const temp = data<ProjectRole>(await call('POST', `projects/${p.id}/roles`, role({ name: 'Temp', allQueues: true, allCenters: true })))
    const m1 = data<Member>(await call('POST', `projects/${p.id}/members`, { userId: aliceId, roleId: temp.id }))
    const m2 = data<Member>(await call('POST', `projects/${p.id}/members`, { userId: bobId, roleId: temp.id }))
    await refused('DELETE', `projects/${p.id}/roles/${temp.id}`, undefined, 409, {
      zh: '还有 2 名成员持有该角色，不能删除',
      en: '2 members still hold this role; it cannot be deleted',
    })
    data(await call('DELETE', `projects/${p.id}/members/${m1.id}`))
    data(await call('DELETE', `projects/${p.id}/members/${m2.id}`))
    expect(json(await call('DELETE', `projects/${p.id}/roles/${temp.id}`))).toMatchObject({ code: 0, boolResult: true })
    expect((await roles()).some((r) => r.id === temp.id)).toBe(false)
    expect((await call('DELETE', `projects/${p.id}/roles/${temp.id}`)).statusCode).toBe(404)
  })
})

describe('members', () => {
  it('adds an active user with a role, changes the role, removes the member; audited on the project', async () => {
    const crc = (await roles()).find((r) => r.name === 'CRC')!
    const added = data<Member>(await call('POST', `projects/${p.id}/members`, { userId: aliceId, roleId: crc.id }))
    expect(added).toMatchObject({ userId: aliceId, name: 'Alice Wang', username: 'alice', roleId: crc.id, roleName: 'CRC' })
    expect((await members()).map((m) => m.username)).toEqual(['pm', 'alice'])
    const promoted = data<Member>(await call('PUT', `projects/${p.id}/members/${added.id}`, { roleId: p.managerRoleId }))
    expect(promoted.roleName).toBe('项目管理员')
    data(await call('PUT', `projects/${p.id}/members/${added.id}`, { roleId: crc.id }))
    data(await call('DELETE', `projects/${p.id}/members/${added.id}`))
    expect((await members()).map((m) => m.username)).toEqual(['pm'])
    const rows = await t.db.kysely.selectFrom('audit_log').where('action', 'like', 'project.member.%').selectAll().orderBy('id').execute()
    expect(rows.slice(-4).map((r) => [r.action, r.object_id])).toEqual([
      ['project.member.add', p.id],
      ['project.member.role', p.id],
      ['project.member.role', p.id],
      ['project.member.remove', p.id],
    ])
    expect(JSON.parse(rows.at(-2)!.detail)).toMatchObject({ from: '项目管理员', to: 'CRC', name: 'Alice Wang' })
  })

  it('refuses a disabled or unknown user, a member twice, a role of another project; nothing changed', async () => {
    const crc = (await roles()).find((r) => r.name === 'CRC')!
    await refused('POST', `projects/${p.id}/members`, { userId: carolId, roleId: crc.id }, 400, {
      zh: `用户 ${carolId} 不存在或已停用`,
      en: `User ${carolId} does not exist or is disabled`,
    })
    await refused('POST', `projects/${p.id}/members`, { userId: 999999, roleId: crc.id }, 400, {
      zh: '用户 999999 不存在或已停用',
      en: 'User 999999 does not exist or is disabled',
    })
    await refused('POST', `projects/${p.id}/members`, { userId: pmId, roleId: crc.id }, 409, {
      zh: '用户“Manager Pan”已是项目成员',
      en: 'User "Manager Pan" is already a member of the project',
    })
    await refused('POST', `projects/${p.id}/members`, { userId: bobId, roleId: other.managerRoleId }, 400, {
      zh: `项目角色 ${other.managerRoleId} 不存在`,
      en: `Project role ${other.managerRoleId} does not exist`,
    })
    await refused('POST', `projects/${p.id}/members`, { userId: 'bob', roleId: crc.id }, 400, {
      zh: 'userId 的类型不正确，应为数字',
      en: 'userId has the wrong type; expected a number',
    })
    await refused('POST', `projects/${p.id}/members`, { roleId: crc.id }, 400, { zh: '请输入 userId', en: 'Please input userId' })
    await refused('PUT', `projects/${p.id}/members/999999`, { roleId: crc.id }, 404, {
      zh: '成员 999999 不存在',
      en: 'Member 999999 does not exist',
    })
    // A member of another project is no member of this one.
    await refused('DELETE', `projects/${p.id}/members/${other.managerMemberId}`, undefined, 404, {
      zh: `成员 ${other.managerMemberId} 不存在`,
      en: `Member ${other.managerMemberId} does not exist`,
    })
  })

  it('never leaves a project without a manager: the last one is neither removed nor demoted', async () => {
    const crc = (await roles()).find((r) => r.name === 'CRC')!
    const last = { zh: '项目至少需要一名项目管理员', en: 'A project needs at least one project manager' }
    await refused('DELETE', `projects/${p.id}/members/${p.managerMemberId}`, undefined, 409, last)
    await refused('PUT', `projects/${p.id}/members/${p.managerMemberId}`, { roleId: crc.id }, 409, last)
    const ra2 = data<Member>(await call('POST', `projects/${p.id}/members`, { userId: ra2Id, roleId: p.managerRoleId }))
    // With two managers, one may be demoted; then the other is the last again.
    await as('ra2', async () => {
      data(await call('PUT', `projects/${p.id}/members/${p.managerMemberId}`, { roleId: crc.id }))
      await refused('DELETE', `projects/${p.id}/members/${ra2.id}`, undefined, 409, last)
      await refused('PUT', `projects/${p.id}/members/${ra2.id}`, { roleId: crc.id }, 409, last)
      data(await call('PUT', `projects/${p.id}/members/${p.managerMemberId}`, { roleId: p.managerRoleId }))
    })
    data(await call('DELETE', `projects/${p.id}/members/${ra2.id}`))
  })

  it('keeps one manager when two managers remove each other at the same moment, every time', async () => {
    const pmToken = token
    const raToken = await t.signIn('ra2', 'Secret2024')
    for (let round = 0; round < 5; round++) {
      const race = await insertProject(t, { creatorId: pmId })
      const ra2 = data<Member>(await call('POST', `projects/${race.id}/members`, { userId: ra2Id, roleId: race.managerRoleId }))
      const remove = (tok: string, memberId: number) =>
        t.app.inject({ method: 'DELETE', url: `/api/projects/${race.id}/members/${memberId}`, headers: { 'kr-d-token': tok } })
      const answers = await Promise.all([remove(pmToken, ra2.id), remove(raToken, race.managerMemberId)])
      // The slower one is refused: as the last manager (409), or, when the faster one had already
      // ended, as no member any more (403). Never both removed.
      const codes = answers.map((r) => r.statusCode).sort()
      expect(codes[0], answers.map((r) => r.body).join(' | ')).toBe(200)
      expect([403, 409]).toContain(codes[1])
      const left = await t.db.kysely.selectFrom('project_member').where('project_id', '=', race.id).select('id').execute()
      expect(left).toHaveLength(1)
    }
  })

  it('offers active non-members by name or username prefix in the user picker', async () => {
    const names = async (q?: string) =>
      data<Candidate[]>(await call('GET', `projects/${p.id}/candidates${q === undefined ? '' : `?q=${encodeURIComponent(q)}`}`)).map(
        (c) => c.name,
      )
    expect(await names()).toEqual(['Alice Wang', 'Bob Li', 'Other Admin'])
    expect(await names('ali')).toEqual(['Alice Wang'])
    expect(await names('BO')).toEqual(['Bob Li'])
    expect(await names('ra')).toEqual(['Other Admin'])
    expect(await names('carol')).toEqual([])
    expect(await names('pm')).toEqual([])
    await refused('GET', `projects/${p.id}/candidates?limit=0`, undefined, 400, {
      zh: '每页条数 不能小于 1',
      en: 'page size must be at least 1',
    })
    await refused('GET', `projects/${p.id}/candidates?q=${'x'.repeat(65)}`, undefined, 400, {
      zh: 'q 长度不能超过 64 个字符',
      en: 'q must be at most 64 characters',
    })
  })

  it('lets only managers with the grant manage: a non-member administrator (who may audit, so read) and a plain member are refused', async () => {
    await as('ra2', async () => {
      expect((await call('POST', `projects/${p.id}/roles`, role({ name: 'Nope' }))).statusCode).toBe(403)
      expect((await call('GET', `projects/${p.id}/candidates`)).statusCode).toBe(403)
    })
    const crc = (await roles()).find((r) => r.name === 'CRC')!
    const alice = data<Member>(await call('POST', `projects/${p.id}/members`, { userId: aliceId, roleId: crc.id }))
    await as('alice', async () => {
      // A member reads roles and members, but without the grant adds no one.
      expect((await roles()).length).toBeGreaterThan(0)
      expect((await call('POST', `projects/${p.id}/members`, { userId: bobId, roleId: crc.id })).statusCode).toBe(403)
    })
    data(await call('DELETE', `projects/${p.id}/members/${alice.id}`))
  })

  it('lets a member manage people only within their own role: no authority, center or unblinding beyond it; each refusal audited as denied', async () => {
    const [c1, c2] = projectCenters as [number, number]
    const manager = (await roles()).find((r) => r.builtin === 'manager')!
    const local = data<ProjectRole>(
      await call(
        'POST',
        `projects/${p.id}/roles`,
        role({ name: 'Center C1 lead', authorities: ['manageMembers', 'enrol', 'enterData'], allQueues: true, centerIds: [c1] }),
      ),
    )
    const lead = data<Member>(await call('POST', `projects/${p.id}/members`, { userId: ra2Id, roleId: local.id }))
    const pm = (await members()).find((m) => m.userId === pmId)!
    const deniedRows = () =>
      t.db.kysely
        .selectFrom('audit_log')
        .select(['action', 'detail'])
        .where('outcome', '=', 'denied')
        .where('object_id', '=', p.id)
        .execute()
    const deniedBefore = (await deniedRows()).length
    const rolesBefore = await roles()
    const membersBefore = await members()
    const cases: [Method, string, Payload | undefined, { zh: string; en: string }][] = [
      [
        'POST',
        `projects/${p.id}/roles`,
        role({ name: 'Unblinder', authorities: ['enrol', 'unblind'], allQueues: true, centerIds: [c1] }),
        { zh: '不能授予超出您自己项目角色的权限：揭盲', en: 'You may not grant more than your own project role holds: Unblind' },
      ],
      [
        'POST',
        `projects/${p.id}/roles`,
        role({ name: 'Everywhere', allQueues: true, allCenters: true }),
        { zh: '不能授予超出您自己项目角色的权限：全部中心', en: 'You may not grant more than your own project role holds: every center' },
      ],
      [
        'POST',
        `projects/${p.id}/roles`,
        role({ name: 'Other center', allQueues: true, centerIds: [c2] }),
        { zh: '不能授予超出您自己项目角色的权限：中心 C2', en: 'You may not grant more than your own project role holds: center C2' },
      ],
      [
        'PUT',
        `projects/${p.id}/members/${lead.id}`,
        { roleId: manager.id },
        {
          zh: '不能授予超出您自己项目角色的权限：项目配置',
          en: 'You may not grant more than your own project role holds: Configure the project',
        },
      ],
      [
        'POST',
        `projects/${p.id}/members`,
        { userId: bobId, roleId: manager.id },
        {
          zh: '不能授予超出您自己项目角色的权限：项目配置',
          en: 'You may not grant more than your own project role holds: Configure the project',
        },
      ],
      [
        'DELETE',
        `projects/${p.id}/members/${pm.id}`,
        undefined,
        {
          zh: '不能授予超出您自己项目角色的权限：项目配置',
          en: 'You may not grant more than your own project role holds: Configure the project',
        },
      ],
      [
        'PUT',
        `projects/${p.id}/roles/${manager.id}`,
        { ...manager, name: 'Renamed' },
        {
          zh: '不能授予超出您自己项目角色的权限：项目配置',
          en: 'You may not grant more than your own project role holds: Configure the project',
        },
      ],
    ]
    await as('ra2', async () => {
      for (const [method, url, payload, msg] of cases)
        for (const lang of ['zh', 'en'] as const) {
          const res = await call(method, url, payload, lang)
          expect(res.statusCode, `${method} ${url} ${res.body}`).toBe(403)
          expect(json(res).msg).toBe(msg[lang])
        }
      // Within their own role they manage as any manager does.
      const crc = data<ProjectRole>(
        await call('POST', `projects/${p.id}/roles`, role({ name: 'C1 entry', allQueues: true, centerIds: [c1] })),
      )
      const bob = data<Member>(await call('POST', `projects/${p.id}/members`, { userId: bobId, roleId: crc.id }))
      data(await call('DELETE', `projects/${p.id}/members/${bob.id}`))
      data(await call('DELETE', `projects/${p.id}/roles/${crc.id}`))
    })
    expect(await roles()).toEqual(rolesBefore)
    expect(await members()).toEqual(membersBefore)
    const denied = (await deniedRows()).slice(deniedBefore)
    expect(denied).toHaveLength(cases.length * 2)
    expect(denied.map((r) => r.action)).toContain('project.member.role')
    data(await call('DELETE', `projects/${p.id}/members/${lead.id}`))
    data(await call('DELETE', `projects/${p.id}/roles/${local.id}`))
  })

  it('changes nothing in a closed project', async () => {
    const closed = await insertProject(t, { creatorId: pmId, status: 'closed' })
    const before = await snapshot()
    const res = await call('POST', `projects/${closed.id}/roles`, role({ name: 'Late' }), 'en')
    expect(res.statusCode).toBe(409)
    expect(json(res).msg).toBe('The project is closed and cannot be changed')
    expect(await snapshot()).toEqual(before)
  })
})
