import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Center, CenterPage } from '../../contract/projects.ts'
import { testApp, type TestApp } from '../support/testApp.ts'
import { apiCalls, type Payload } from '../support/apiCalls.ts'

/**
 * The center directory (SPEC §3 Center): keyset list by name with a prefix search, codes unique
 * in any case, deletion refused while a project uses the center; on this project's database.
 */

let t: TestApp
let token = ''
const tokens = { entry: '', none: '' }

beforeAll(async () => {
  t = await testApp()
  await t.createUser('ra', 'Resadmin1', { roles: ['researchAdmin'] })
  await t.createUser('entry', 'Entry123', { roles: ['dataEntry'] })
  await t.createUser('nobody', 'Nobody12', { roles: [] })
  token = await t.signIn('ra', 'Resadmin1')
  tokens.entry = await t.signIn('entry', 'Entry123')
  tokens.none = await t.signIn('nobody', 'Nobody12')
})
afterAll(() => t.close())

let as = () => token
const { call, json, data } = apiCalls(
  () => t,
  () => as(),
  '/api',
)
const create = async (p: Payload) => data<Center>(await call('POST', '/centers', p))

const centerRows = () => t.db.kysely.selectFrom('center').selectAll().orderBy('id').execute()
const auditCount = async () =>
  Number(
    (
      await t.db.kysely
        .selectFrom('audit_log')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  )
async function lastAudit(action: string) {
  const row = await t.db.kysely.selectFrom('audit_log').selectAll().where('action', '=', action).orderBy('id', 'desc').executeTakeFirst()
  return row && { ...row, detail: JSON.parse(row.detail) as Record<string, unknown> }
}
/** Runs `act` and checks that the directory and the audit log are as before. */
async function writesNothing(act: () => Promise<unknown>) {
  const before = [await centerRows(), await auditCount()]
  await act()
  expect([await centerRows(), await auditCount()]).toEqual(before)
}

/** A project using `centerId`, written directly (projects are another area's routes). */
async function projectUsing(centerId: number, number: string) {
  const at = new Date().toISOString()
  const p = await t.db.kysely
    .insertInto('project')
    .values({
      ...{ scope: 'multi', type: 'prospective', number, name: number, group_type: 'single', blinded: 'open' },
      ...{ random_method: 'none', planned_quantity: 10, planned_groups: 1, status: 'draft', creator_id: null },
      ...{ disease_id: null, test_stage: null, created_at: at, updated_at: at },
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  await t.db.kysely.insertInto('project_center').values({ project_id: p.id, center_id: centerId, sort: 0 }).execute()
  return p.id
}

describe('create, edit, audit', () => {
  it('creates with defaults, trims, audits with the center as object', async () => {
    const c = await create({ code: ' BJ01 ', nameZh: ' 北京协和医院 ' })
    expect(c).toMatchObject({ code: 'BJ01', nameZh: '北京协和医院', nameEn: '', region: '', projectCount: 0 })
    expect(await lastAudit('center.create')).toMatchObject({
      username: 'ra',
      outcome: 'ok',
      object_type: 'center',
      object_id: c.id,
      detail: { id: c.id, code: 'BJ01' },
    })
  })

  it('edits every field; keeping its own code in another case is fine; audits the old values', async () => {
    const c = await create({ code: 'SH01', nameZh: '上海中山医院', region: '上海' })
    const e = data<Center>(
      await call('PUT', `/centers/${c.id}`, { code: 'sh01', nameZh: '复旦大学附属中山医院', nameEn: 'Zhongshan Hospital', region: '上海' }),
    )
    expect(e).toMatchObject({ id: c.id, code: 'sh01', nameZh: '复旦大学附属中山医院', nameEn: 'Zhongshan Hospital', region: '上海' })
    expect((await lastAudit('center.update'))?.detail).toMatchObject({
      id: c.id,
      was: { code: 'SH01', nameZh: '上海中山医院', nameEn: '' },
    })
  })

  it('a code in use in any case: 409 in both languages, on create and on edit; nothing changes', async () => {
    const a = await create({ code: 'GZ01', nameZh: '广州一院' })
    await writesNothing(async () => {
      const res = await call('POST', '/centers', { code: 'gz01', nameZh: '别的' })
      expect(res.statusCode).toBe(409)
      expect(json(res).msg).toBe('中心编码 gz01 已存在')
      expect(json(await call('POST', '/centers', { code: 'GZ01', nameZh: '别的' }, 'en')).msg).toBe('Center code GZ01 already exists')
      const b = await t.db.kysely.selectFrom('center').select('id').where('code', '=', 'BJ01').executeTakeFirstOrThrow()
      const upd = await call('PUT', `/centers/${b.id}`, { code: 'Gz01', nameZh: '北京协和医院' }, 'en')
      expect(upd.statusCode).toBe(409)
      expect(json(upd).msg).toBe('Center code Gz01 already exists')
    })
    expect(a.code).toBe('GZ01')
  })

  it('two creates of one code at the same time: one is saved, the others 409, never 500', async () => {
    const results = await Promise.all(Array.from({ length: 4 }, (_, i) => call('POST', '/centers', { code: 'RACE', nameZh: `并发${i}` })))
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409, 409, 409])
  })

  it('missing, empty, too long or wrong-typed fields: 400 naming the field in both languages; nothing changes', async () => {
    await writesNothing(async () => {
      for (const [bad, zh, en] of [
        [{ nameZh: '无编码' }, '请输入 code', 'Please input code'],
        [{ code: '   ', nameZh: '空编码' }, 'code', 'code'],
        [{ code: 'X1' }, '请输入 nameZh', 'Please input nameZh'],
        [{ code: 7, nameZh: '数字' }, 'code', 'code'],
        [{ code: 'x'.repeat(33), nameZh: '长' }, 'code 长度不能超过 32 个字符', 'code must be at most 32 characters'],
        [{ code: 'X2', nameZh: '区', region: 'r'.repeat(101) }, 'region', 'region'],
      ] as const) {
        const res = await call('POST', '/centers', bad as Payload, 'zh')
        expect(res.statusCode, JSON.stringify(bad)).toBe(400)
        expect(json(res).msg).toContain(zh)
        expect(json(await call('POST', '/centers', bad as Payload, 'en')).msg).toContain(en)
      }
      const c = await t.db.kysely.selectFrom('center').select('id').where('code', '=', 'BJ01').executeTakeFirstOrThrow()
      expect((await call('PUT', `/centers/${c.id}`, { code: '' })).statusCode).toBe(400)
    })
  })

  it('unknown ids: 404 naming the id in both languages', async () => {
    await writesNothing(async () => {
      for (const [method, payload] of [
        ['PUT', { code: 'NONE', nameZh: '无' }],
        ['DELETE', undefined],
      ] as const) {
        const res = await call(method, '/centers/424242', payload)
        expect(res.statusCode, method).toBe(404)
        expect(json(res).msg).toBe('中心 424242 不存在')
        expect(json(await call(method, '/centers/424242', payload, 'en')).msg).toBe('Center 424242 does not exist')
      }
    })
  })
})

describe('the list', () => {
  it('by name, keyset-paged: every center once, in order, with the total', async () => {
    for (let i = 0; i < 7; i++) await create({ code: `PAGE${i}`, nameZh: `分页中心${6 - i}`, nameEn: `Paging ${i}` })
    const seen: Center[] = []
    let after: string | null = null
    let pages = 0
    do {
      const page: CenterPage = data<CenterPage>(await call('GET', `/centers?limit=3${after ? `&after=${after}` : ''}`))
      seen.push(...page.rows)
      after = page.next
      pages++
      expect(page.total).toBe((await centerRows()).length)
    } while (after)
    expect(pages).toBe(Math.ceil((await centerRows()).length / 3))
    const expected = (await centerRows()).sort((a, b) => (a.name_zh < b.name_zh ? -1 : a.name_zh > b.name_zh ? 1 : a.id - b.id))
    expect(seen.map((c) => c.id)).toEqual(expected.map((c) => c.id))
  })

  it('q: prefix of the code (any case) or of either name', async () => {
    const byCode = data<CenterPage>(await call('GET', '/centers?q=page'))
    expect(byCode.rows.map((c) => c.code).sort()).toEqual(['PAGE0', 'PAGE1', 'PAGE2', 'PAGE3', 'PAGE4', 'PAGE5', 'PAGE6'])
    expect(byCode.total).toBe(7)
    expect(data<CenterPage>(await call('GET', `/centers?q=${encodeURIComponent('分页中心3')}`)).rows.map((c) => c.code)).toEqual(['PAGE3'])
    expect(data<CenterPage>(await call('GET', `/centers?q=${encodeURIComponent('paging 5')}`)).rows.map((c) => c.code)).toEqual(['PAGE5'])
    // A prefix, not a substring.
    expect(data<CenterPage>(await call('GET', `/centers?q=${encodeURIComponent('中心')}`)).total).toBe(0)
  })

  it('a forged cursor or a bad limit: 400', async () => {
    expect((await call('GET', '/centers?after=nope')).statusCode).toBe(400)
    expect((await call('GET', '/centers?limit=0')).statusCode).toBe(400)
  })
})

describe('delete', () => {
  it('refused (409) while a project uses the center, in both languages; allowed once none does, audited', async () => {
    const c = await create({ code: 'DEL1', nameZh: '待删中心' })
    const projectId = await projectUsing(c.id, 'C-DEL-1')
    expect(data<CenterPage>(await call('GET', '/centers?q=DEL1')).rows[0]?.projectCount).toBe(1)
    await writesNothing(async () => {
      const res = await call('DELETE', `/centers/${c.id}`)
      expect(res.statusCode).toBe(409)
      expect(json(res)).toEqual({ code: 409, msg: '还有 1 个项目使用该中心，不能删除', boolResult: false })
      expect(json(await call('DELETE', `/centers/${c.id}`, undefined, 'en')).msg).toBe('1 project uses this center: it cannot be deleted')
    })
    await t.db.kysely.deleteFrom('project_center').where('project_id', '=', projectId).execute()
    const res = await call('DELETE', `/centers/${c.id}`)
    expect(json(res)).toMatchObject({ code: 0, boolResult: true })
    expect((await centerRows()).some((r) => r.id === c.id)).toBe(false)
    expect(await lastAudit('center.delete')).toMatchObject({ object_type: 'center', object_id: c.id, detail: { code: 'DEL1' } })
  })
})

describe('who may', () => {
  it('an account without a role gets 403 on every call; data entry may list but not change; nothing changes', async () => {
    const c = await create({ code: 'AUTH1', nameZh: '权限中心' })
    await writesNothing(async () => {
      try {
        as = () => tokens.none
        for (const [method, url, payload] of [
          ['GET', '/centers', undefined],
          ['POST', '/centers', { code: 'NO1', nameZh: '无' }],
          ['PUT', `/centers/${c.id}`, { code: 'NO1', nameZh: '无' }],
          ['DELETE', `/centers/${c.id}`, undefined],
        ] as const) {
          const res = await call(method, url, payload, 'en')
          expect(res.statusCode, `${method} ${url}`).toBe(403)
          expect(json(res).msg).toBe('You are not allowed to do this')
        }
        as = () => tokens.entry
        expect((await call('GET', '/centers')).statusCode).toBe(200)
        for (const [method, url, payload] of [
          ['POST', '/centers', { code: 'NO1', nameZh: '无' }],
          ['PUT', `/centers/${c.id}`, { code: 'NO1', nameZh: '无' }],
          ['DELETE', `/centers/${c.id}`, undefined],
        ] as const) {
          const res = await call(method, url, payload)
          expect(res.statusCode, `${method} ${url}`).toBe(403)
          expect(json(res).msg).toBe('没有权限执行此操作')
        }
      } finally {
        as = () => token
      }
    })
  })
})
