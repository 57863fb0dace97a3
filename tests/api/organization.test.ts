import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Career, CareerPage, Department } from '../../contract/organization.ts'
import { body, testApp, type TestApp } from '../support/testApp.ts'

/** Departments (a tree) and careers (issue 8 item 1), on SQLite and PostgreSQL. */

let t: TestApp
let admin: string
let entry: string

beforeAll(async () => {
  t = await testApp()
  await t.createUser('orgadmin', 'Admin2024')
  await t.createUser('typist', 'Typist2024', { roles: ['dataEntry'] })
  admin = await t.signIn('orgadmin', 'Admin2024')
  entry = await t.signIn('typist', 'Typist2024')
})
afterAll(() => t.close())

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE'
function call(method: Method, url: string, payload?: object, token = admin, lang = 'en') {
  return t.app.inject({ method, url, payload, headers: { 'kr-d-token': token, 'accept-language': lang } })
}
async function okData<T>(method: Method, url: string, payload?: object): Promise<T> {
  const res = await call(method, url, payload)
  expect(res.statusCode, res.body).toBe(200)
  return body(res).data as T
}
const departments = async () => (await okData<{ items: Department[] }>('GET', '/api/admin/departments')).items
const create = (name: string, parentId: number | null = null) => okData<Department>('POST', '/api/admin/departments', { name, parentId })
const auditRows = (action: string) => t.db.kysely.selectFrom('audit_log').selectAll().where('action', '=', action).orderBy('id').execute()

describe('departments', () => {
  it('builds a tree: siblings in order, each with its user count', async () => {
    const hospital = await create('Hospital A')
    const cardio = await create('Cardiology', hospital.id)
    const onco = await create('Oncology', hospital.id)
    expect(cardio).toMatchObject({ name: 'Cardiology', parentId: hospital.id, sort: 0, userCount: 0 })
    expect(onco.sort).toBe(1)
    await t.db.kysely.updateTable('app_user').set({ department_id: cardio.id }).where('name', '=', 'typist').execute()
    const all = await departments()
    expect(all.find((d) => d.id === cardio.id)?.userCount).toBe(1)
    const rows = await auditRows('department.create')
    expect(rows.at(-1)).toMatchObject({ object_type: 'department', object_id: onco.id, outcome: 'ok' })
  })

  it('refuses a name a sibling holds, whatever its case, with the SPEC message; another parent may hold it', async () => {
    const root = await create('Names root')
    await create('Surgery', root.id)
    const res = await call('POST', '/api/admin/departments', { name: 'SURGERY', parentId: root.id })
    expect(res.statusCode).toBe(409)
    expect(body(res).msg).toBe('SURGERY already exists')
    const zh = await call('POST', '/api/admin/departments', { name: 'surgery', parentId: root.id }, admin, 'zh')
    expect(body(zh).msg).toBe('surgery已存在')
    await create('Surgery', null)
  })

  it('refuses a name too long or empty, naming the field, and an unknown parent', async () => {
    const long = await call('POST', '/api/admin/departments', { name: 'x'.repeat(65) })
    expect(long.statusCode).toBe(400)
    expect(body(long).msg).toContain('name')
    expect((await call('POST', '/api/admin/departments', { name: '  ' })).statusCode).toBe(400)
    const orphan = await call('POST', '/api/admin/departments', { name: 'Orphan', parentId: 999999 })
    expect(orphan.statusCode).toBe(400)
    expect(body(orphan).msg).toBe('The parent department 999999 does not exist')
  })

  it('renames, refusing a sibling clash', async () => {
    const root = await create('Rename root')
    const a = await create('Alpha', root.id)
    await create('Beta', root.id)
    expect((await okData<Department>('PUT', `/api/admin/departments/${a.id}`, { name: 'Gamma' })).name).toBe('Gamma')
    const clash = await call('PUT', `/api/admin/departments/${a.id}`, { name: 'beta' })
    expect(clash.statusCode).toBe(409)
    expect((await departments()).find((d) => d.id === a.id)?.name).toBe('Gamma')
  })

  it('moves under another parent and to a position; siblings renumbered', async () => {
    const root = await create('Move root')
    const [x, y, z] = [await create('X', root.id), await create('Y', root.id), await create('Z', root.id)]
    await okData('PUT', `/api/admin/departments/${z.id}/move`, { parentId: root.id, index: 0 })
    const order = (await departments()).filter((d) => d.parentId === root.id).map((d) => d.name)
    expect(order).toEqual(['Z', 'X', 'Y'])
    const moved = await okData<Department>('PUT', `/api/admin/departments/${y.id}/move`, { parentId: x.id })
    expect(moved).toMatchObject({ parentId: x.id, sort: 0 })
    expect((await auditRows('department.move')).at(-1)).toMatchObject({ object_type: 'department', object_id: y.id })
  })

  it('refuses a cycle: under itself or under a descendant, nothing changed', async () => {
    const top = await create('Cycle top')
    const mid = await create('Cycle mid', top.id)
    const leaf = await create('Cycle leaf', mid.id)
    for (const parentId of [top.id, mid.id, leaf.id]) {
      const res = await call('PUT', `/api/admin/departments/${top.id}/move`, { parentId })
      expect(res.statusCode).toBe(400)
      expect(body(res).msg).toBe('A department cannot be moved under itself or one of its sub-departments')
    }
    const zh = await call('PUT', `/api/admin/departments/${top.id}/move`, { parentId: leaf.id }, admin, 'zh')
    expect(body(zh).msg).toBe('不能把部门移动到它自己或它的下级部门之下')
    expect((await departments()).find((d) => d.id === top.id)?.parentId).toBeNull()
  })

  it('refuses to delete a department with users or sub-departments, with the count; deletes an empty one', async () => {
    const root = await create('Delete root')
    const withUser = await create('Staffed', root.id)
    await create('Empty', root.id)
    await t.createUser('staffer', 'Staffer2024', { roles: ['dataEntry'] })
    await t.db.kysely.updateTable('app_user').set({ department_id: withUser.id }).where('name', '=', 'staffer').execute()
    const staffed = await call('DELETE', `/api/admin/departments/${withUser.id}`)
    expect(staffed.statusCode).toBe(409)
    expect(body(staffed).msg).toBe('The department still has 1 user; it cannot be deleted')
    const parent = await call('DELETE', `/api/admin/departments/${root.id}`)
    expect(parent.statusCode).toBe(409)
    expect(body(parent).msg).toBe('The department still has 2 sub-departments; it cannot be deleted')
    const empty = (await departments()).find((d) => d.name === 'Empty')!
    const res = await call('DELETE', `/api/admin/departments/${empty.id}`)
    expect(body(res)).toMatchObject({ code: 0, boolResult: true })
    expect((await departments()).some((d) => d.id === empty.id)).toBe(false)
    expect((await call('DELETE', `/api/admin/departments/${empty.id}`)).statusCode).toBe(404)
  })
})

describe('careers', () => {
  const createCareer = (name: string, remarks = '') => okData<Career>('POST', '/api/admin/careers', { name, remarks })
  const page = (q: Record<string, string | number>) =>
    okData<CareerPage>('GET', `/api/admin/careers?${new URLSearchParams(Object.entries(q).map(([k, v]) => [k, String(v)]))}`)

  it('creates, refuses a name taken whatever its case, edits and keyset-pages by name and by creation', async () => {
    const names = ['Nurse', 'Attending physician', 'Resident', 'Chief physician', 'Pharmacist']
    for (const n of names) await createCareer(n, `remarks of ${n}`)
    const dup = await call('POST', '/api/admin/careers', { name: 'NURSE' })
    expect(dup.statusCode).toBe(409)
    expect(body(dup).msg).toBe('NURSE already exists')

    const first = await page({ limit: 2 })
    expect(first.items.map((c) => c.name)).toEqual(['Attending physician', 'Chief physician'])
    expect(first.total).toBe(5)
    const second = await page({ limit: 2, after: first.next! })
    expect(second.items.map((c) => c.name)).toEqual(['Nurse', 'Pharmacist'])
    const third = await page({ limit: 2, after: second.next! })
    expect(third.items.map((c) => c.name)).toEqual(['Resident'])
    expect(third.next).toBeNull()

    const byCreation = await page({ sort: 'created', order: 'desc', limit: 3 })
    expect(byCreation.items.map((c) => c.name)).toEqual(['Pharmacist', 'Chief physician', 'Resident'])
    const rest = await page({ sort: 'created', order: 'desc', limit: 3, after: byCreation.next! })
    expect(rest.items.map((c) => c.name)).toEqual(['Attending physician', 'Nurse'])

    const filtered = await page({ q: 'ph' })
    expect(filtered.items.map((c) => c.name)).toEqual(['Pharmacist'])
    expect(filtered.total).toBe(1)

    const nurse = first.items[0]!
    const edited = await okData<Career>('PUT', `/api/admin/careers/${nurse.id}`, { name: 'Attending', remarks: 'edited' })
    expect(edited).toMatchObject({ name: 'Attending', remarks: 'edited' })
    expect((await call('PUT', `/api/admin/careers/${nurse.id}`, { name: 'resident' })).statusCode).toBe(409)
  })

  it('refuses to delete a career someone holds, with the count; deletes it once free', async () => {
    const c = await createCareer('Technician')
    await t.db.kysely.updateTable('app_user').set({ career_id: c.id }).where('name', 'in', ['typist', 'orgadmin']).execute()
    const res = await call('DELETE', `/api/admin/careers/${c.id}`)
    expect(res.statusCode).toBe(409)
    expect(body(res).msg).toBe('2 users still hold this career; it cannot be deleted')
    expect((await page({ q: 'tech' })).items[0]?.userCount).toBe(2)
    await t.db.kysely.updateTable('app_user').set({ career_id: null }).where('career_id', '=', c.id).execute()
    expect(body(await call('DELETE', `/api/admin/careers/${c.id}`))).toMatchObject({ code: 0, boolResult: true })
    expect((await auditRows('career.delete')).at(-1)).toMatchObject({ object_type: 'career', object_id: c.id })
  })

  it('refuses a forged cursor and a long name', async () => {
    expect((await call('GET', '/api/admin/careers?after=nonsense')).statusCode).toBe(400)
    expect((await call('POST', '/api/admin/careers', { name: 'x'.repeat(65) })).statusCode).toBe(400)
  })
})

describe('a data-entry user', () => {
  it('gets 403 on every department and career route', async () => {
    const calls: [Method, string, object?][] = [
      ['GET', '/api/admin/departments'],
      ['POST', '/api/admin/departments', { name: 'No' }],
      ['PUT', '/api/admin/departments/1', { name: 'No' }],
      ['PUT', '/api/admin/departments/1/move', { parentId: null }],
      ['DELETE', '/api/admin/departments/1'],
      ['GET', '/api/admin/careers'],
      ['POST', '/api/admin/careers', { name: 'No' }],
      ['PUT', '/api/admin/careers/1', { name: 'No' }],
      ['DELETE', '/api/admin/careers/1'],
    ]
    for (const [method, url, payload] of calls) {
      const res = await call(method, url, payload, entry)
      expect(res.statusCode, `${method} ${url}`).toBe(403)
      expect(body(res).msg).toBe('You are not allowed to do this')
    }
  })
})
