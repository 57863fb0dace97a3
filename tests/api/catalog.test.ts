import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { CatalogEntry } from '../../contract/catalog.ts'
import { body, testApp, type TestApp } from '../support/testApp.ts'

/** The menu/route catalog (issue 8 item 3): edits, their checks, and the permission list that carries them. */

let t: TestApp
let admin: string
let entry: string

beforeAll(async () => {
  t = await testApp()
  await t.createUser('catadmin', 'Admin2024')
  await t.createUser('typist', 'Typist2024', { roles: ['dataEntry'] })
  admin = await t.signIn('catadmin', 'Admin2024')
  entry = await t.signIn('typist', 'Typist2024')
})
afterAll(() => t.close())

function call(method: 'GET' | 'PUT', url: string, payload?: object, token = admin) {
  return t.app.inject({ method, url, payload, headers: { 'kr-d-token': token, 'accept-language': 'en' } })
}
const list = async () => (body(await call('GET', '/api/admin/catalog')).data as { items: CatalogEntry[] }).items

describe('catalog', () => {
  it('lists menus and screens in order, titles empty (built-in) until renamed', async () => {
    const items = await list()
    expect(items.find((e) => e.name === 'menu:management')).toMatchObject({ kind: 'menu', menu: null, titleZh: '', hidden: false })
    expect(items.find((e) => e.name === 'role')).toMatchObject({ kind: 'screen', menu: 'management', icon: 'people' })
    const sorts = items.map((e) => e.sort)
    expect([...sorts].sort((a, b) => a - b)).toEqual(sorts)
  })

  it('edits order, icon, hidden flag and titles; the permission list of every user carries them; audited', async () => {
    const res = await call('PUT', `/api/admin/catalog/${encodeURIComponent('menu:data')}`, {
      titleZh: '数据中心',
      titleEn: 'Data centre',
      sort: 0,
    })
    expect(res.statusCode, res.body).toBe(200)
    expect(body(res).data).toMatchObject({ name: 'menu:data', titleZh: '数据中心', titleEn: 'Data centre', sort: 0 })
    await call('PUT', '/api/admin/catalog/role', { icon: 'shield', hidden: true })
    const perms = body(await call('GET', '/api/admin/user/front/permissions', undefined, entry)).data as { catalog: CatalogEntry[] }
    expect(perms.catalog.find((e) => e.name === 'role')).toMatchObject({ icon: 'shield', hidden: true })
    expect(perms.catalog.find((e) => e.name === 'menu:data')?.titleEn).toBe('Data centre')
    // Back to the built-in translation.
    await call('PUT', `/api/admin/catalog/${encodeURIComponent('menu:data')}`, { titleEn: '' })
    expect((await list()).find((e) => e.name === 'menu:data')).toMatchObject({ titleEn: '', titleZh: '数据中心' })
    const rows = await t.db.kysely.selectFrom('audit_log').selectAll().where('action', '=', 'catalog.update').execute()
    expect(rows.length).toBe(3)
    expect(JSON.parse(rows[0]!.detail)).toMatchObject({ name: 'menu:data', titleEn: 'Data centre' })
  })

  it('refuses a bad icon, a long title, an unknown entry; nothing changed', async () => {
    const icon = await call('PUT', '/api/admin/catalog/user', { icon: 'Bad Icon!' })
    expect(icon.statusCode).toBe(400)
    expect(body(icon).msg).toContain('icon')
    const long = await call('PUT', '/api/admin/catalog/user', { titleEn: 'x'.repeat(33) })
    expect(long.statusCode).toBe(400)
    expect(body(long).msg).toContain('titleEn')
    const missing = await call('PUT', '/api/admin/catalog/nowhere', { hidden: true })
    expect(missing.statusCode).toBe(404)
    expect(body(missing).msg).toBe('Catalog entry nowhere does not exist')
    expect((await list()).find((e) => e.name === 'user')).toMatchObject({ icon: 'user', titleEn: '' })
  })

  it('answers 403 to a data-entry user on both routes', async () => {
    expect((await call('GET', '/api/admin/catalog', undefined, entry)).statusCode).toBe(403)
    expect((await call('PUT', '/api/admin/catalog/user', { hidden: true }, entry)).statusCode).toBe(403)
  })
})
