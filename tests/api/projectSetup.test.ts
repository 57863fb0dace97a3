import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { projectAuthorities, type ProjectDetail, type Queue } from '../../contract/projects.ts'
import { testApp, type TestApp } from '../support/testApp.ts'
import { apiCalls, type Method, type Payload } from '../support/apiCalls.ts'

/**
 * The edit tabs that set one part of a project (queues, centers, pinned forms), on this
 * project's database. Projects are written directly (their creation is another area's route),
 * with the creator's manager role and membership as the project convention has them.
 */

let t: TestApp
const users = { mgr: 0, viewer: 0, entry: 0 }
const tokens = { mgr: '', outsider: '', viewer: '', entry: '', admin: '' }

beforeAll(async () => {
  t = await testApp()
  users.mgr = await t.createUser('mgr', 'Manager1', { roles: ['researchAdmin'] })
  await t.createUser('outsider', 'Outsider1', { roles: ['researchAdmin'] })
  users.viewer = await t.createUser('viewer', 'Viewer12', { roles: ['researchAdmin'] })
  users.entry = await t.createUser('entry', 'Entry123', { roles: ['dataEntry'] })
  await t.createUser('admin', 'Admin123')
  for (const [k, pw] of [
    ['mgr', 'Manager1'],
    ['outsider', 'Outsider1'],
    ['viewer', 'Viewer12'],
    ['entry', 'Entry123'],
    ['admin', 'Admin123'],
  ] as const)
    tokens[k] = await t.signIn(k, pw)
})
afterAll(() => t.close())

let as = () => tokens.mgr
const { call, json, data } = apiCalls(
  () => t,
  () => as(),
  '/api',
)
async function asUser<T>(token: string, act: () => Promise<T>): Promise<T> {
  as = () => token
  try {
    return await act()
  } finally {
    as = () => tokens.mgr
  }
}

const db = () => t.db.kysely
const old = '2020-01-01T00:00:00.000Z'
let serial = 0

/** A center of the directory. */
async function center(code: string) {
  const at = new Date().toISOString()
  const row = await db()
    .insertInto('center')
    .values({ code, name_zh: `${code}医院`, name_en: `${code} Hospital`, region: '', created_at: at, updated_at: at })
    .returning('id')
    .executeTakeFirstOrThrow()
  return row.id
}

/**
 * A project the creator 'mgr' manages (manager role, every authority), with 'viewer' a member
 * without 'configure' and 'entry' (a data-entry account) holding the manager role too.
 */
async function project(opts: { scope?: 'multi' | 'single'; status?: string; queues?: string[]; centers?: number[] } = {}) {
  serial++
  const p = await db()
    .insertInto('project')
    .values({
      ...{ scope: opts.scope ?? 'multi', type: 'prospective', number: `PS-${serial}`, name: `项目${serial}`, group_type: 'single' },
      ...{ blinded: 'open', random_method: 'none', planned_quantity: 10, planned_groups: 1, status: opts.status ?? 'draft' },
      ...{ creator_id: users.mgr, disease_id: null, test_stage: null, created_at: old, updated_at: old },
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  const queueIds: number[] = []
  for (const [sort, key] of (opts.queues ?? ['Q1']).entries()) {
    const q = await db()
      .insertInto('project_queue')
      .values({ project_id: p.id, name: `队列${key}`, key, sort })
      .returning('id')
      .executeTakeFirstOrThrow()
    queueIds.push(q.id)
  }
  for (const [sort, id] of (opts.centers ?? []).entries()) {
    await db().insertInto('project_center').values({ project_id: p.id, center_id: id, sort }).execute()
  }
  const role = (name: string, builtin: string | null, authorities: readonly string[]) =>
    db()
      .insertInto('project_role')
      .values({
        ...{ project_id: p.id, name, builtin, authorities: JSON.stringify(authorities), all_queues: 1, all_centers: 1 },
        ...{ blinded: 0, created_at: old, updated_at: old },
      })
      .returning('id')
      .executeTakeFirstOrThrow()
  const manager = await role('项目管理员', 'manager', projectAuthorities)
  const reader = await role('只读', null, ['enterData'])
  for (const [user, roleId] of [
    [users.mgr, manager.id],
    [users.entry, manager.id],
    [users.viewer, reader.id],
  ] as const) {
    await db().insertInto('project_member').values({ project_id: p.id, user_id: user, role_id: roleId, created_at: old }).execute()
  }
  return { id: p.id, queueIds, managerRoleId: manager.id, readerRoleId: reader.id }
}

async function subject(projectId: number, queueId: number, centerId: number) {
  serial++
  const at = new Date().toISOString()
  await db()
    .insertInto('subject')
    .values({ project_id: projectId, queue_id: queueId, center_id: centerId, subject_no: `S${serial}`, created_at: at, updated_at: at })
    .execute()
}

/** A CRF with one version per state given, numbered 1, 2, …; answers the version ids. */
async function template(name: string, states: readonly ('published' | 'draft')[]) {
  const at = new Date().toISOString()
  const tpl = await db()
    .insertInto('template')
    .values({ kind: 'crf', name, description: '', collect_type: 'once', status: 1, created_at: at, updated_at: at })
    .returning('id')
    .executeTakeFirstOrThrow()
  const versions: number[] = []
  for (const [i, state] of states.entries()) {
    const v = await db()
      .insertInto('template_version')
      .values({
        template_id: tpl.id,
        version: i + 1,
        state,
        sections: '[]',
        created_at: at,
        published_at: state === 'published' ? at : null,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    versions.push(v.id)
  }
  return { id: tpl.id, versions }
}

const projectRow = (id: number) => db().selectFrom('project').selectAll().where('id', '=', id).executeTakeFirstOrThrow()
async function snapshot() {
  const all = <T extends 'project' | 'project_queue' | 'project_center' | 'project_form' | 'project_role_center' | 'project_role_queue'>(
    table: T,
  ) => db().selectFrom(table).selectAll().execute()
  const count = await db()
    .selectFrom('audit_log')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirstOrThrow()
  const sorted = (rows: object[]) => rows.map((r) => JSON.stringify(r)).sort()
  return [
    sorted(await all('project')),
    sorted(await all('project_queue')),
    sorted(await all('project_center')),
    sorted(await all('project_form')),
    sorted(await all('project_role_center')),
    sorted(await all('project_role_queue')),
    Number(count.n),
  ]
}
/** Runs `act` and checks that no project part and no audit row changed. */
async function writesNothing(act: () => Promise<unknown>) {
  const before = await snapshot()
  await act()
  expect(await snapshot()).toEqual(before)
}
async function lastAudit(action: string) {
  const row = await db().selectFrom('audit_log').selectAll().where('action', '=', action).orderBy('id', 'desc').executeTakeFirst()
  return row && { ...row, detail: JSON.parse(row.detail) as Record<string, unknown> }
}
/** The refusal in both languages: status and message. */
async function refused(method: Method, url: string, payload: Payload | undefined, status: number, zh: string, en: string) {
  const a = await call(method, url, payload, 'zh')
  expect(a.statusCode, `${method} ${url} ${JSON.stringify(payload)}: ${a.body}`).toBe(status)
  expect(json(a).msg).toContain(zh)
  const b = await call(method, url, payload, 'en')
  expect(b.statusCode).toBe(status)
  expect(json(b).msg).toContain(en)
}

const queueBody = (key: string, extra: Payload = {}) => ({ name: `队列${key}`, key, ...extra })

describe('queues', () => {
  it('add goes last, trims, bumps the project, audits on the project', async () => {
    const p = await project()
    const q = data<Queue>(await call('POST', `/projects/${p.id}/queues`, { name: ' 对照组 ', key: 'ctrl_2', entryCondition: '年龄≥18' }))
    expect(q).toMatchObject({ name: '对照组', key: 'ctrl_2', entryCondition: '年龄≥18', excludeCondition: '', sort: 1, subjectCount: 0 })
    expect((await projectRow(p.id)).updated_at).not.toBe(old)
    expect(await lastAudit('project.queue.create')).toMatchObject({
      username: 'mgr',
      object_type: 'project',
      object_id: p.id,
      detail: { projectId: p.id, queueId: q.id, key: 'ctrl_2' },
    })
  })

  it('update changes every field, keeps its own key in another case, audits the old values', async () => {
    const p = await project({ queues: ['Q1', 'Q2'] })
    const q = data<Queue>(
      await call('PUT', `/projects/${p.id}/queues/${p.queueIds[1]}`, {
        name: '新名',
        key: 'q2',
        entryCondition: '纳入',
        excludeCondition: '排除',
      }),
    )
    expect(q).toMatchObject({ id: p.queueIds[1], name: '新名', key: 'q2', entryCondition: '纳入', excludeCondition: '排除', sort: 1 })
    expect((await lastAudit('project.queue.update'))?.detail).toMatchObject({ queueId: p.queueIds[1], was: { name: '队列Q2', key: 'Q2' } })
    expect((await projectRow(p.id)).updated_at).not.toBe(old)
  })

  it('a key used in the project, in any case: refused in both languages on add and update; nothing changes', async () => {
    const p = await project({ queues: ['Arm_A', 'Arm_B'] })
    const other = await project({ queues: ['Free'] })
    await writesNothing(async () => {
      await refused('POST', `/projects/${p.id}/queues`, queueBody('arm_a'), 409, '队列标识 arm_a 已存在', 'Queue key arm_a already exists')
      await refused(
        'PUT',
        `/projects/${p.id}/queues/${p.queueIds[1]}`,
        queueBody('ARM_A'),
        409,
        '队列标识 ARM_A 已存在',
        'Queue key ARM_A already exists',
      )
    })
    // Another project's keys are no concern.
    expect(data<Queue>(await call('POST', `/projects/${other.id}/queues`, queueBody('Arm_A'))).key).toBe('Arm_A')
  })

  it('missing or wrong-typed fields, a bad key, too long text: 400 naming the field in both languages; nothing changes', async () => {
    const p = await project()
    await writesNothing(async () => {
      for (const [bad, zh, en] of [
        [{ key: 'K1' }, '请输入 name', 'Please input name'],
        [{ name: '无标识' }, '请输入 key', 'Please input key'],
        [{ name: 7, key: 'K1' }, 'name', 'name'],
        [{ name: '  ', key: 'K1' }, 'name', 'name'],
        [queueBody('1abc'), 'key', 'key'],
        [queueBody('a-b'), 'key', 'key'],
        [queueBody('k'.repeat(31)), 'key 长度不能超过 30 个字符', 'key must be at most 30 characters'],
        [queueBody('K1', { entryCondition: 'x'.repeat(2001) }), 'entryCondition', 'entryCondition'],
        [queueBody('K1', { excludeCondition: 5 }), 'excludeCondition', 'excludeCondition'],
      ] as const) {
        await refused('POST', `/projects/${p.id}/queues`, bad as Payload, 400, zh, en)
        await refused('PUT', `/projects/${p.id}/queues/${p.queueIds[0]}`, bad as Payload, 400, zh, en)
      }
    })
  })

  it('delete: refused with the SPEC message while research objects are in the queue; the last queue stays', async () => {
    const c = await center('QDEL')
    const p = await project({ queues: ['Q1', 'Q2'], centers: [c] })
    await subject(p.id, p.queueIds[0]!, c)
    await writesNothing(async () => {
      await refused(
        'DELETE',
        `/projects/${p.id}/queues/${p.queueIds[0]}`,
        undefined,
        409,
        '当前队列下存在研究对象，删除失败',
        'There are research objects under the current queue, deletion failed',
      )
    })
    const full = data<ProjectDetail>(await call('PUT', `/projects/${p.id}/centers`, { centerIds: [c] }))
    expect(full.queues.map((q) => [q.key, q.subjectCount])).toEqual([
      ['Q1', 1],
      ['Q2', 0],
    ])
    // A role limited to the queue loses it with the queue.
    await db().insertInto('project_role_queue').values({ role_id: p.readerRoleId, queue_id: p.queueIds[1]! }).execute()
    expect(json(await call('DELETE', `/projects/${p.id}/queues/${p.queueIds[1]}`))).toMatchObject({ code: 0, boolResult: true })
    expect(await db().selectFrom('project_role_queue').selectAll().where('role_id', '=', p.readerRoleId).execute()).toEqual([])
    expect(await lastAudit('project.queue.delete')).toMatchObject({ object_id: p.id, detail: { queueId: p.queueIds[1], key: 'Q2' } })

    const single = await project({ queues: ['ONLY'] })
    await writesNothing(() =>
      refused(
        'DELETE',
        `/projects/${single.id}/queues/${single.queueIds[0]}`,
        undefined,
        409,
        '项目至少需要一个队列',
        'A project needs at least one queue',
      ),
    )
  })

  it('a project already holding 50 queues takes no more: 409 in both languages; nothing changes', async () => {
    const p = await project({ queues: Array.from({ length: 50 }, (_, i) => `Q${i}`) })
    await writesNothing(() =>
      refused('POST', `/projects/${p.id}/queues`, queueBody('Q50'), 409, '一个项目最多有 50 个队列', 'A project has at most 50 queues'),
    )
  })

  it('a queue of another project or none: 404 naming it; nothing changes', async () => {
    const p = await project()
    const other = await project()
    await writesNothing(async () => {
      const q = other.queueIds[0]!
      await refused('PUT', `/projects/${p.id}/queues/${q}`, queueBody('X1'), 404, `队列 ${q} 不存在`, `Queue ${q} does not exist`)
      await refused('DELETE', `/projects/${p.id}/queues/${q}`, undefined, 404, `队列 ${q} 不存在`, `Queue ${q} does not exist`)
      await refused('DELETE', `/projects/${p.id}/queues/424242`, undefined, 404, '队列 424242 不存在', 'Queue 424242 does not exist')
    })
  })

  it('at the same time: adds of one key in three cases save one; deletes of the last two queues leave one; never 500', async () => {
    const p = await project({ queues: ['Q1', 'Q2'] })
    const adds = await Promise.all(['RACE', 'race', 'Race'].map((k) => call('POST', `/projects/${p.id}/queues`, queueBody(k))))
    expect(adds.map((r) => r.statusCode).sort()).toEqual([200, 409, 409])
    const q = await project({ queues: ['Q1', 'Q2'] })
    const deletes = await Promise.all(q.queueIds.map((id) => call('DELETE', `/projects/${q.id}/queues/${id}`)))
    expect(deletes.map((r) => r.statusCode).sort()).toEqual([200, 409])
    expect(await db().selectFrom('project_queue').select('id').where('project_id', '=', q.id).execute()).toHaveLength(1)
  })
})

describe('project centers', () => {
  it('replaced as a set in the given order; answers the detail; bumps and audits', async () => {
    const [a, b, c] = [await center('SET_A'), await center('SET_B'), await center('SET_C')]
    const p = await project({ centers: [a] })
    const d = data<ProjectDetail>(await call('PUT', `/projects/${p.id}/centers`, { centerIds: [c, a, b] }))
    expect(d.centers.map((x) => [x.id, x.sort])).toEqual([
      [c, 0],
      [a, 1],
      [b, 2],
    ])
    expect(d.centers[0]).toMatchObject({ code: 'SET_C', nameZh: 'SET_C医院', nameEn: 'SET_C Hospital', subjectCount: 0 })
    expect(d).toMatchObject({ id: p.id, myRole: '项目管理员', me: { roleId: p.managerRoleId, queueIds: null, centerIds: null } })
    expect((await projectRow(p.id)).updated_at).not.toBe(old)
    expect((await lastAudit('project.centers'))?.detail).toMatchObject({ centerIds: [c, a, b], added: [c, b], removed: [] })

    // Removing one takes it from the roles of this project limited to it, not from other projects.
    const other = await project({ centers: [b] })
    await db().insertInto('project_role_center').values({ role_id: p.readerRoleId, center_id: b }).execute()
    await db().insertInto('project_role_center').values({ role_id: other.readerRoleId, center_id: b }).execute()
    const e = data<ProjectDetail>(await call('PUT', `/projects/${p.id}/centers`, { centerIds: [a] }))
    expect(e.centers.map((x) => x.id)).toEqual([a])
    expect(
      (await db().selectFrom('project_role_center').select('role_id').where('center_id', '=', b).execute()).map((r) => r.role_id),
    ).toEqual([other.readerRoleId])
    expect((await lastAudit('project.centers'))?.detail).toMatchObject({ added: [], removed: [c, b] })
    expect(data<ProjectDetail>(await call('PUT', `/projects/${p.id}/centers`, { centerIds: [] })).centers).toEqual([])
  })

  it('a center not in the directory, twice, or two for a single-center project: 400 in both languages; nothing changes', async () => {
    const [a, b] = [await center('BAD_A'), await center('BAD_B')]
    const multi = await project({ centers: [a] })
    const single = await project({ scope: 'single' })
    await writesNothing(async () => {
      await refused(
        'PUT',
        `/projects/${multi.id}/centers`,
        { centerIds: [a, 424242] },
        400,
        '中心 424242 不在中心目录中',
        'Center 424242 is not in the center directory',
      )
      await refused('PUT', `/projects/${multi.id}/centers`, { centerIds: [b, b] }, 400, `中心 ${b} 重复`, `Center ${b} is listed twice`)
      await refused(
        'PUT',
        `/projects/${single.id}/centers`,
        { centerIds: [a, b] },
        400,
        '单中心项目只能选择一个中心',
        'A single-center project has exactly one center',
      )
      await refused('PUT', `/projects/${multi.id}/centers`, {}, 400, '请输入 中心ID', 'Please input center ids')
      await refused(
        'PUT',
        `/projects/${multi.id}/centers`,
        { centerIds: 'x' },
        400,
        '中心ID 的类型不正确，应为列表',
        'center ids has the wrong type; expected a list',
      )
      await refused('PUT', `/projects/${multi.id}/centers`, { centerIds: [0] }, 400, '中心ID（第 1 项）', 'center ids (item 1)')
    })
    expect(data<ProjectDetail>(await call('PUT', `/projects/${single.id}/centers`, { centerIds: [b] })).centers.map((c) => c.id)).toEqual([
      b,
    ])
  })

  it('removing a center with research objects of the project: 409 naming it, in both languages; nothing changes', async () => {
    const [a, b] = [await center('SUBJ_A'), await center('SUBJ_B')]
    const p = await project({ centers: [a, b] })
    await subject(p.id, p.queueIds[0]!, a)
    await writesNothing(() =>
      refused(
        'PUT',
        `/projects/${p.id}/centers`,
        { centerIds: [b] },
        409,
        '中心“SUBJ_A医院”下已有研究对象，不能移除',
        'Center "SUBJ_A Hospital" has research objects and cannot be removed',
      ),
    )
    const d = data<ProjectDetail>(await call('PUT', `/projects/${p.id}/centers`, { centerIds: [a] }))
    expect(d.centers.map((c) => [c.id, c.subjectCount])).toEqual([[a, 1]])
  })
})

describe('pinned forms', () => {
  it('set adds, removes and reorders pins of published versions; the detail offers newer versions', async () => {
    const x = await template('表X', ['published', 'published', 'draft'])
    const y = await template('表Y', ['published'])
    const p = await project()
    const d = data<ProjectDetail>(
      await call('PUT', `/projects/${p.id}/forms`, {
        forms: [
          { templateId: x.id, versionId: x.versions[0] },
          { templateId: y.id, versionId: y.versions[0] },
        ],
      }),
    )
    expect(d.forms.map((f) => [f.templateId, f.name, f.kind, f.version, f.latestVersion, f.latestVersionId, f.sort])).toEqual([
      [x.id, '表X', 'crf', 1, 2, x.versions[1], 0],
      [y.id, '表Y', 'crf', 1, null, null, 1],
    ])
    expect((await lastAudit('project.forms'))?.detail).toMatchObject({ projectId: p.id, removed: [] })
    expect((await projectRow(p.id)).updated_at).not.toBe(old)
    const e = data<ProjectDetail>(await call('PUT', `/projects/${p.id}/forms`, { forms: [{ templateId: y.id, versionId: y.versions[0] }] }))
    expect(e.forms.map((f) => [f.templateId, f.sort])).toEqual([[y.id, 0]])
    expect((await lastAudit('project.forms'))?.detail).toMatchObject({ added: [], removed: [x.id] })
  })

  it('an unpublished version, another template’s version, a template twice, a changed pin: 400 in both languages; nothing changes', async () => {
    const x = await template('表P', ['published', 'published', 'draft'])
    const y = await template('表Q', ['published'])
    const p = await project()
    data(await call('PUT', `/projects/${p.id}/forms`, { forms: [{ templateId: x.id, versionId: x.versions[0] }] }))
    await writesNothing(async () => {
      const url = `/projects/${p.id}/forms`
      const [v1, v2, draft] = x.versions as [number, number, number]
      await refused(
        'PUT',
        url,
        { forms: [{ templateId: y.id, versionId: draft }] },
        400,
        `模板 ${y.id} 的版本 ${draft} 不是已发布版本`,
        `Version ${draft} of template ${y.id} is not a published version`,
      )
      await refused(
        'PUT',
        url,
        {
          forms: [
            { templateId: x.id, versionId: v1 },
            { templateId: y.id, versionId: v2 },
          ],
        },
        400,
        `模板 ${y.id} 的版本 ${v2} 不是已发布版本`,
        'is not a published version',
      )
      await refused(
        'PUT',
        url,
        {
          forms: [
            { templateId: y.id, versionId: y.versions[0] },
            { templateId: y.id, versionId: y.versions[0] },
          ],
        },
        400,
        `模板 ${y.id} 重复`,
        `Template ${y.id} is listed twice`,
      )
      await refused(
        'PUT',
        url,
        { forms: [{ templateId: x.id, versionId: v2 }] },
        400,
        `模板 ${x.id} 的版本只能通过升级更换`,
        `The version of template ${x.id} changes only by an upgrade`,
      )
      await refused('PUT', url, { forms: [{ templateId: x.id }] }, 400, '请输入 forms.0.versionId', 'Please input forms.0.versionId')
      await refused('PUT', url, { forms: [{ templateId: 'x', versionId: v1 }] }, 400, 'forms.0.templateId', 'forms.0.templateId')
    })
  })

  it('upgrade moves a pin to a newer published version of its template, logged with both versions', async () => {
    const x = await template('表U', ['published', 'published', 'published', 'draft'])
    const p = await project()
    data(await call('PUT', `/projects/${p.id}/forms`, { forms: [{ templateId: x.id, versionId: x.versions[0] }] }))
    await db().updateTable('project').set({ updated_at: old }).where('id', '=', p.id).execute()
    const d = data<ProjectDetail>(await call('POST', `/projects/${p.id}/forms/${x.id}/upgrade`, { versionId: x.versions[1] }))
    expect(d.forms.map((f) => [f.versionId, f.version, f.latestVersion])).toEqual([[x.versions[1], 2, 3]])
    expect((await projectRow(p.id)).updated_at).not.toBe(old)
    expect(await lastAudit('project.form.upgrade')).toMatchObject({
      username: 'mgr',
      object_type: 'project',
      object_id: p.id,
      detail: { projectId: p.id, templateId: x.id, fromVersionId: x.versions[0], fromVersion: 1, toVersionId: x.versions[1], toVersion: 2 },
    })
    await writesNothing(async () => {
      const url = `/projects/${p.id}/forms/${x.id}/upgrade`
      await refused(
        'POST',
        url,
        { versionId: x.versions[0] },
        400,
        '版本 1 不比当前固定的版本新',
        'Version 1 is not newer than the pinned version',
      )
      await refused(
        'POST',
        url,
        { versionId: x.versions[1] },
        400,
        '版本 2 不比当前固定的版本新',
        'Version 2 is not newer than the pinned version',
      )
      await refused('POST', url, { versionId: x.versions[3] }, 400, '不是已发布版本', 'is not a published version')
      const y = await template('表V', ['published', 'published'])
      await refused('POST', url, { versionId: y.versions[1] }, 400, '不是已发布版本', 'is not a published version')
      await refused(
        'POST',
        `/projects/${p.id}/forms/${y.id}/upgrade`,
        { versionId: y.versions[1] },
        404,
        `项目未采集模板 ${y.id}`,
        `The project does not collect template ${y.id}`,
      )
      await refused('POST', url, {}, 400, '请输入 versionId', 'Please input versionId')
      await refused('POST', url, { versionId: 'new' }, 400, 'versionId', 'versionId')
    })
  })
})

/** Every write of this area on project `p`, with a valid body. */
function writes(p: Awaited<ReturnType<typeof project>>, extra: { centerId: number; templateId: number; versionId: number }) {
  return [
    ['POST', `/projects/${p.id}/queues`, queueBody('NEW')],
    ['PUT', `/projects/${p.id}/queues/${p.queueIds[0]}`, queueBody('Q1')],
    ['DELETE', `/projects/${p.id}/queues/${p.queueIds[1]}`, undefined],
    ['PUT', `/projects/${p.id}/centers`, { centerIds: [extra.centerId] }],
    ['PUT', `/projects/${p.id}/forms`, { forms: [{ templateId: extra.templateId, versionId: extra.versionId }] }],
    ['POST', `/projects/${p.id}/forms/${extra.templateId}/upgrade`, { versionId: extra.versionId }],
  ] as const
}

describe('closed projects and who may', () => {
  it('every write on a closed project: 409 in both languages; nothing changes', async () => {
    const c = await center('CLOSED')
    const x = await template('表C', ['published'])
    const p = await project({ status: 'closed', queues: ['Q1', 'Q2'] })
    await writesNothing(async () => {
      for (const [method, url, payload] of writes(p, { centerId: c, templateId: x.id, versionId: x.versions[0]! })) {
        await refused(method, url, payload, 409, '项目已关闭，不能修改', 'The project is closed and cannot be changed')
      }
    })
  })

  it('a non-member, a member without the configure authority, and a manager without the system grant: 403; nothing changes', async () => {
    const c = await center('AUTHZ')
    const x = await template('表A', ['published'])
    const p = await project({ queues: ['Q1', 'Q2'] })
    const calls = writes(p, { centerId: c, templateId: x.id, versionId: x.versions[0]! })
    await writesNothing(async () => {
      for (const token of [tokens.outsider, tokens.viewer, tokens.entry]) {
        await asUser(token, async () => {
          for (const [method, url, payload] of calls)
            await refused(method, url, payload, 403, '没有权限执行此操作', 'You are not allowed to do this')
        })
      }
    })
  })

  it('a system administrator needs no membership; an unknown project is 404 for them', async () => {
    const p = await project({ queues: ['Q1'] })
    await asUser(tokens.admin, async () => {
      const q = data<Queue>(await call('POST', `/projects/${p.id}/queues`, queueBody('ADMIN')))
      expect(q.key).toBe('ADMIN')
      const d = data<ProjectDetail>(await call('PUT', `/projects/${p.id}/centers`, { centerIds: [] }))
      expect(d.me).toBeNull()
      await writesNothing(() =>
        refused('POST', '/projects/424242/queues', queueBody('X'), 404, '项目 424242 不存在', 'Project 424242 does not exist'),
      )
    })
  })
})
