import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { permissions } from '../../contract/permissions.ts'
import type { RoleDetail, RoleSummary } from '../../contract/roles.ts'
import { migrateTo, migrateToLatest } from '../../server/db/migrate.ts'
import { addUserRoles } from '../../server/db/repositories/roles.ts'
import { body, testApp, type TestApp } from '../support/testApp.ts'

/** System roles and their grants (issue 8 item 2): rules, escalation, and grants felt on the next request. */

let t: TestApp
let admin: string
let entry: string
let typistId: number

beforeAll(async () => {
  t = await testApp()
  await t.createUser('roleadmin', 'Admin2024')
  typistId = await t.createUser('typist', 'Typist2024', { roles: ['dataEntry'] })
  admin = await t.signIn('roleadmin', 'Admin2024')
  entry = await t.signIn('typist', 'Typist2024')
})
afterAll(() => t.close())

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE'
function call(method: Method, url: string, payload?: object, token = admin, lang = 'en') {
  return t.app.inject({ method, url, payload, headers: { 'kr-d-token': token, 'accept-language': lang } })
}
async function okData<T>(method: Method, url: string, payload?: object, token = admin): Promise<T> {
  const res = await call(method, url, payload, token)
  expect(res.statusCode, res.body).toBe(200)
  return body(res).data as T
}
const roles = async () => (await okData<{ items: RoleSummary[] }>('GET', '/api/admin/roles')).items
const createRole = (input: object, token = admin) => okData<RoleDetail>('POST', '/api/admin/roles', input, token)
const auditRows = (action: string) => t.db.kysely.selectFrom('audit_log').selectAll().where('action', '=', action).orderBy('id').execute()
const assign = (userId: number, roleId: number) => addUserRoles(t.db.kysely, userId, [roleId])

describe('roles', () => {
  it('lists the built-in roles with their counts; the system administrator holds everything', async () => {
    const all = await roles()
    expect(all.map((r) => r.builtin)).toEqual(['sysAdmin', 'researchAdmin', 'researcher', 'dataEntry', 'monitor'])
    const sys = all[0]!
    expect(sys).toMatchObject({ superuser: true, nameEn: 'System administrator', userCount: 1 })
    expect(all.find((r) => r.builtin === 'dataEntry')).toMatchObject({ superuser: false, userCount: 1, permissionCount: 5 })
    const detail = await okData<RoleDetail>('GET', `/api/admin/roles/${sys.id}`)
    expect(detail.permissions).toEqual(permissions)
    expect(detail.screens).toContain('role')
  })

  it('the study roles open the screens of their work: follow-up and progress; data loading for those who load or download', async () => {
    const screens = async () => {
      const out: Record<string, string[]> = {}
      for (const r of await roles()) out[r.builtin ?? r.nameEn] = (await okData<RoleDetail>('GET', `/api/admin/roles/${r.id}`)).screens
      return out
    }
    const study = ['followUp', 'progress']
    const seeded = await screens()
    for (const key of ['researcher', 'dataEntry', 'monitor']) expect(seeded[key]).toEqual(expect.arrayContaining(study))
    // dataLoad.export, dataLoad.import: the screen to use it from.
    expect(seeded.researcher).toEqual(expect.arrayContaining(['dataLoading', 'dataList']))
    expect(seeded.dataEntry).toEqual(expect.arrayContaining(['dataLoading', 'dataList']))
    expect(seeded.monitor).not.toContain('dataLoading')
    const perms = await okData<{ screens: string[] }>('GET', '/api/admin/user/front/permissions', undefined, entry)
    expect(perms.screens).toEqual(expect.arrayContaining([...study, 'dataLoading']))

    // A database seeded before these screens existed gets them from migration 0027.
    await migrateTo(t.db, '20261205_0026_list_cache_generation')
    const before = await screens()
    expect(before.dataEntry).not.toContain('followUp')
    expect(before.dataEntry).not.toContain('dataLoading')
    expect(before.researcher).toContain('dataList')
    await migrateToLatest(t.db)
    expect(await screens()).toEqual(seeded)
    expect((await okData<{ screens: string[] }>('GET', '/api/admin/user/front/permissions', undefined, entry)).screens).toEqual(
      perms.screens,
    )
  })

  it('the built-in researcher may sign and unblind (the investigator), as a database seeded before gets by migration 0029', async () => {
    const researcher = (await roles()).find((r) => r.builtin === 'researcher')!
    const permissions = async () => (await okData<RoleDetail>('GET', `/api/admin/roles/${researcher.id}`)).permissions
    const seeded = await permissions()
    expect(seeded).toEqual(expect.arrayContaining(['subject.sign', 'subject.unblind']))
    await migrateTo(t.db, '20261206_0028_project_history')
    const before = await permissions()
    expect(before).not.toContain('subject.sign')
    expect(before).not.toContain('subject.unblind')
    await migrateToLatest(t.db)
    expect((await permissions()).sort()).toEqual([...seeded].sort())
  })

  it('the built-in monitor has no system audit log (every project, center and sign-in), as a database seeded before loses it by migration 0030', async () => {
    await t.createUser('watcher', 'Watcher2024', { roles: ['monitor'] })
    const watcher = await t.signIn('watcher', 'Watcher2024')
    const monitor = (await roles()).find((r) => r.builtin === 'monitor')!
    const grants = async () => okData<RoleDetail>('GET', `/api/admin/roles/${monitor.id}`)
    const seeded = await grants()
    expect(seeded.screens).not.toContain('auditLog')
    expect(seeded.permissions).not.toContain('audit.view')
    expect((await call('GET', '/api/admin/audit/list', undefined, watcher)).statusCode).toBe(403)
    await migrateTo(t.db, '20261207_0029_investigator_grants')
    const before = await grants()
    expect(before.screens).toContain('auditLog')
    expect(before.permissions).toContain('audit.view')
    expect((await call('GET', '/api/admin/audit/list', undefined, watcher)).statusCode).toBe(200)
    await migrateToLatest(t.db)
    const after = await grants()
    expect([after.screens.sort(), after.permissions.sort()]).toEqual([seeded.screens.sort(), seeded.permissions.sort()])
    expect((await call('GET', '/api/admin/audit/list', undefined, watcher)).statusCode).toBe(403)
  })

  it('the built-in research administrator has no system audit log (subjects of projects they are not in), as a database seeded before loses it by migration 0032', async () => {
    await t.createUser('lead', 'Lead2024x', { roles: ['researchAdmin'] })
    const lead = await t.signIn('lead', 'Lead2024x')
    const role = (await roles()).find((r) => r.builtin === 'researchAdmin')!
    const grants = async () => okData<RoleDetail>('GET', `/api/admin/roles/${role.id}`)
    const seeded = await grants()
    expect(seeded.screens).not.toContain('auditLog')
    expect(seeded.permissions).not.toContain('audit.view')
    expect(seeded.permissions).toContain('project.approve')
    expect((await call('GET', '/api/admin/audit/list', undefined, lead)).statusCode).toBe(403)
    await migrateTo(t.db, '20261208_0031_upload_message_key')
    const before = await grants()
    expect(before.screens).toContain('auditLog')
    expect(before.permissions).toContain('audit.view')
    expect((await call('GET', '/api/admin/audit/list', undefined, lead)).statusCode).toBe(200)
    await migrateToLatest(t.db)
    const after = await grants()
    expect([after.screens.sort(), after.permissions.sort()]).toEqual([seeded.screens.sort(), seeded.permissions.sort()])
    expect((await call('GET', '/api/admin/audit/list', undefined, lead)).statusCode).toBe(403)
  })

  it('creates a role with grants, replaces them as a set, and audits both with the role as object', async () => {
    const role = await createRole({
      nameZh: '质控员',
      nameEn: 'Quality',
      remarks: 'QC',
      screens: ['dictionaryList'],
      permissions: ['dictionary.view'],
    })
    expect(role).toMatchObject({ nameZh: '质控员', screenCount: 1, permissionCount: 1, userCount: 0, builtin: null })
    const updated = await okData<RoleDetail>('PUT', `/api/admin/roles/${role.id}`, {
      nameZh: '质控员',
      nameEn: 'Quality control',
      screens: ['diseaseList', 'dictionaryList'],
      permissions: ['template.view', 'dictionary.export'],
    })
    expect(updated.screens).toEqual(['dictionaryList', 'diseaseList'])
    expect(updated.permissions).toEqual(['dictionary.export', 'template.view'])
    // Absent grants stay as they are.
    const renamed = await okData<RoleDetail>('PUT', `/api/admin/roles/${role.id}`, { nameZh: '质控', nameEn: 'QC' })
    expect(renamed.permissions).toEqual(['dictionary.export', 'template.view'])
    const rows = await auditRows('role.update')
    expect(rows.at(-2)).toMatchObject({ object_type: 'role', object_id: role.id, outcome: 'ok' })
    expect(JSON.parse(rows.at(-2)!.detail)).toMatchObject({
      added: ['diseaseList', 'template.view', 'dictionary.export'],
      removed: ['dictionary.view'],
    })
    expect((await auditRows('role.create')).at(-1)).toMatchObject({ object_type: 'role', object_id: role.id })
  })

  it('refuses an unknown screen or permission by name, a long name, a taken name; nothing written', async () => {
    const before = (await roles()).length
    const screen = await call('POST', '/api/admin/roles', { nameZh: 'X', screens: ['nowhere'] })
    expect(screen.statusCode).toBe(400)
    expect(body(screen).msg).toBe('Unknown screen: nowhere')
    const perm = await call('POST', '/api/admin/roles', { nameZh: 'X', permissions: ['dictionary.fly'] }, admin, 'zh')
    expect(perm.statusCode).toBe(400)
    expect(body(perm).msg).toBe('未知的权限：dictionary.fly')
    expect((await call('POST', '/api/admin/roles', { nameZh: 'x'.repeat(65) })).statusCode).toBe(400)
    expect((await call('POST', '/api/admin/roles', { nameZh: 'Y', remarks: 'r'.repeat(501) })).statusCode).toBe(400)
    const taken = await call('POST', '/api/admin/roles', { nameZh: '研究者' })
    expect(taken.statusCode).toBe(409)
    expect(body(taken).msg).toBe('研究者 already exists')
    expect((await roles()).length).toBe(before)
  })

  it("refuses to edit the system administrator's grants, and to delete a built-in role", async () => {
    const sys = (await roles())[0]!
    const res = await call('PUT', `/api/admin/roles/${sys.id}`, { nameZh: '系统管理员', permissions: [] })
    expect(res.statusCode).toBe(400)
    expect(body(res).msg).toBe('The system administrator holds everything; its grants cannot be edited')
    expect((await auditRows('role.update')).at(-1)).toMatchObject({ outcome: 'denied', object_id: sys.id })
    const researcher = (await roles()).find((r) => r.builtin === 'researcher')!
    const del = await call('DELETE', `/api/admin/roles/${researcher.id}`)
    expect(del.statusCode).toBe(409)
    expect(body(del).msg).toBe('A built-in role cannot be deleted')
  })

  it('refuses to delete a role users hold, with the count; deletes it once free', async () => {
    const role = await createRole({ nameZh: '临时', permissions: ['dictionary.view'] })
    const other = await t.createUser('holder', 'Holder2024', { roles: ['dataEntry'] })
    await assign(typistId, role.id)
    await assign(other, role.id)
    const res = await call('DELETE', `/api/admin/roles/${role.id}`)
    expect(res.statusCode).toBe(409)
    expect(body(res).msg).toBe('2 users still hold this role; it cannot be deleted')
    const zh = await call('DELETE', `/api/admin/roles/${role.id}`, undefined, admin, 'zh')
    expect(body(zh).msg).toBe('还有 2 名用户持有该角色，不能删除')
    expect((await roles()).some((r) => r.id === role.id)).toBe(true)
    await t.db.kysely.deleteFrom('user_role').where('role_id', '=', role.id).execute()
    expect(body(await call('DELETE', `/api/admin/roles/${role.id}`))).toMatchObject({ code: 0, boolResult: true })
    expect((await call('GET', `/api/admin/roles/${role.id}`)).statusCode).toBe(404)
  })
})

describe('escalation', () => {
  let delegate: string
  let delegateRole: RoleDetail

  beforeAll(async () => {
    delegateRole = await createRole({
      nameZh: '角色管理员',
      screens: ['role', 'dictionaryList'],
      permissions: ['role.view', 'role.create', 'role.edit', 'role.delete', 'dictionary.view'],
    })
    const id = await t.createUser('delegate', 'Delegate2024', { roles: ['dataEntry'] })
    await assign(id, delegateRole.id)
    delegate = await t.signIn('delegate', 'Delegate2024')
  })

  it('lets a non-superuser grant what they hold', async () => {
    const role = await createRole(
      { nameZh: '只读', screens: ['dictionaryList'], permissions: ['dictionary.view', 'subject.view'] },
      delegate,
    )
    expect(role.permissions).toEqual(['dictionary.view', 'subject.view'])
  })

  it('refuses a permission or screen they do not hold, audited as denied, nothing written', async () => {
    const before = (await roles()).length
    const perm = await call('POST', '/api/admin/roles', { nameZh: '越权', permissions: ['user.manage'] }, delegate)
    expect(perm.statusCode).toBe(403)
    expect(body(perm).msg).toBe('You cannot grant what you do not hold yourself: user.manage')
    const screen = await call('POST', '/api/admin/roles', { nameZh: '越权', screens: ['user'] }, delegate)
    expect(screen.statusCode).toBe(403)
    expect((await roles()).length).toBe(before)
    const denied = (await auditRows('role.create')).filter((r) => r.outcome === 'denied')
    expect(denied.length).toBe(2)
    expect(denied[0]).toMatchObject({ username: 'delegate' })
  })

  it('refuses an edit of a role they hold, and of the system administrator role', async () => {
    const own = await call('PUT', `/api/admin/roles/${delegateRole.id}`, { nameZh: '角色管理员', permissions: ['role.view'] }, delegate)
    expect(own.statusCode).toBe(403)
    expect(body(own).msg).toBe('You cannot edit a role you hold')
    expect((await auditRows('role.update')).at(-1)).toMatchObject({ outcome: 'denied', object_id: delegateRole.id, username: 'delegate' })
    const sys = (await roles())[0]!
    const sup = await call('PUT', `/api/admin/roles/${sys.id}`, { nameZh: 'mine' }, delegate)
    expect(sup.statusCode).toBe(403)
    expect((await okData<RoleDetail>('GET', `/api/admin/roles/${sys.id}`)).nameZh).toBe('系统管理员')
  })

  it('keeps a grant another role already had when a non-superuser edits the rest', async () => {
    const wide = await createRole({ nameZh: '宽', permissions: ['user.manage', 'dictionary.view'] })
    const kept = await okData<RoleDetail>('PUT', `/api/admin/roles/${wide.id}`, { nameZh: '宽', permissions: ['user.manage'] }, delegate)
    expect(kept.permissions).toEqual(['user.manage'])
  })
})

describe('grants take effect on the next request', () => {
  it('a new grant lets its holder in; removing it takes it away, on the same session', async () => {
    const url = '/api/dictionary/diseases'
    expect((await call('GET', url, undefined, entry)).statusCode).toBe(403)
    const role = await createRole({ nameZh: '字典查看', screens: ['diseaseList'], permissions: ['dictionary.view'] })
    const viewerId = await t.createUser('viewer', 'Viewer2024', { roles: ['dataEntry'] })
    const viewer = await t.signIn('viewer', 'Viewer2024')
    await assign(viewerId, role.id)
    expect((await call('GET', url, undefined, viewer)).statusCode).toBe(200)
    const perms = await okData<{ screens: string[]; permissions: string[] }>('GET', '/api/admin/user/front/permissions', undefined, viewer)
    expect(perms.screens).toContain('diseaseList')
    expect(perms.permissions).toContain('dictionary.view')
    await okData('PUT', `/api/admin/roles/${role.id}`, { nameZh: '字典查看', screens: [], permissions: [] })
    expect((await call('GET', url, undefined, viewer)).statusCode).toBe(403)
  })
})

describe('a data-entry user', () => {
  it('gets 403 on every role route', async () => {
    const calls: [Method, string, object?][] = [
      ['GET', '/api/admin/roles'],
      ['GET', '/api/admin/roles/1'],
      ['POST', '/api/admin/roles', { nameZh: 'No' }],
      ['PUT', '/api/admin/roles/2', { nameZh: 'No' }],
      ['DELETE', '/api/admin/roles/2'],
    ]
    for (const [method, url, payload] of calls) {
      const res = await call(method, url, payload, entry)
      expect(res.statusCode, `${method} ${url}`).toBe(403)
    }
  })
})
