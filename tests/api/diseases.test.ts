import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Disease, Indicator } from '../../contract/dictionary.ts'
import { testApp, type TestApp } from '../support/testApp.ts'
import { apiCalls, type Payload } from '../support/apiCalls.ts'

/**
 * The disease index (SPEC §3 Disease, §8 blocking deletions) and the reference data every
 * installation starts with (SPEC §1), on the database of this project (api-sqlite or api-postgres).
 */

let t: TestApp
let token: string

beforeAll(async () => {
  t = await testApp()
  await t.createUser('dm', 'Datamgr1')
  token = await t.signIn('dm', 'Datamgr1')
})
afterAll(() => t.close())

const { call, json, data } = apiCalls(
  () => t,
  () => token,
  '/api/dictionary',
)
const createDisease = async (p: Payload) => data<Disease>(await call('POST', '/diseases', p))
const createIndicator = async (p: Payload) =>
  data<Indicator>(await call('POST', '/indicators', { nameZh: `指标${String(p.code)}`, type: 'blank', display: 'input', ...p }))
/** A project of the disease, through the wizard's create call, as a research administrator would make it. */
const addProject = async (diseaseId: number, name: string) => {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/projects',
    headers: { 'kr-d-token': token },
    payload: {
      scope: 'multi',
      base: { type: 'prospective', name, number: name, groupType: 'single', plannedQuantity: 10, plannedGroups: 1, diseaseId },
      queues: [{ name: '队列', key: 'Q1' }],
    },
  })
  expect(res.statusCode, res.body).toBe(200)
}
const diseaseRows = () => t.db.kysely.selectFrom('disease').selectAll().orderBy('id').execute()
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
/** Runs `act` and checks that diseases, indicators and the audit log are as before. */
async function writesNothing(act: () => Promise<unknown>) {
  const before = [await diseaseRows(), await t.db.kysely.selectFrom('indicator').selectAll().orderBy('id').execute(), await auditCount()]
  await act()
  expect([await diseaseRows(), await t.db.kysely.selectFrom('indicator').selectAll().orderBy('id').execute(), await auditCount()]).toEqual(
    before,
  )
}

describe('reference data (SPEC §1)', () => {
  it('the seven diseases, in order, each with an icon and no indicators yet', async () => {
    const list = data<Disease[]>(await call('GET', '/diseases'))
    expect(list.map((d) => [d.name, d.nameEn])).toEqual([
      ['阿尔茨海默病', "Alzheimer's disease"],
      ['多发性硬化', 'Multiple sclerosis'],
      ['前列腺癌', 'Prostate cancer'],
      ['骨髓瘤', 'Myeloma'],
      ['肺癌', 'Lung cancer'],
      ['糖尿病', 'Diabetes'],
      ['白血病', 'Leukemia'],
    ])
    for (const d of list) {
      expect(d.icon).toMatch(/^[a-z-]+$/)
      expect(d).toMatchObject({ classCount: 0, fieldCount: 0, selectedCount: 0, projectCount: 0 })
    }
    expect(new Set(list.map((d) => d.icon)).size).toBe(7)
  })

  it('the five timeline items, in order, each with an icon', async () => {
    const items = data<{ code: string; name: string; nameEn: string; icon: string }[]>(await call('GET', '/timeline'))
    expect(items.map((i) => [i.code, i.name, i.nameEn])).toEqual([
      ['radiotherapy', '放疗', 'Radiotherapy'],
      ['chemotherapy', '化疗', 'Chemotherapy'],
      ['surgery', '手术', 'Surgery'],
      ['pathology', '病理', 'Pathology'],
      ['examination', '检查', 'Examination'],
    ])
    for (const i of items) expect(i.icon).toMatch(/^[a-z-]+$/)
  })
})

describe('a session is required', () => {
  it('every route answers 401 without a token, and nothing changes', async () => {
    const d = await createDisease({ name: '鉴权测试' })
    await writesNothing(async () => {
      for (const [method, url, payload] of [
        ['GET', '/diseases', undefined],
        ['GET', `/diseases/${d.id}`, undefined],
        ['POST', '/diseases', { name: '匿名' }],
        ['PUT', `/diseases/${d.id}`, { name: '匿名' }],
        ['DELETE', `/diseases/${d.id}`, undefined],
        ['GET', '/timeline', undefined],
      ] as const) {
        const res = await call(method, url, payload, undefined, false)
        expect(res.statusCode, `${method} ${url}`).toBe(401)
        expect(json(res).code).not.toBe(0)
      }
    })
  })
})

describe('counts of the disease index', () => {
  it('classes (distinct, non-empty), fields, selected fields and projects', async () => {
    const d = await createDisease({ name: '计数测试', nameEn: 'Counting', icon: 'heart' })
    expect(d).toMatchObject({
      name: '计数测试',
      nameEn: 'Counting',
      icon: 'heart',
      classCount: 0,
      fieldCount: 0,
      selectedCount: 0,
      projectCount: 0,
    })
    await createIndicator({ code: 'CNT_1', diseaseId: d.id, indexClass: '血常规' })
    await createIndicator({ code: 'CNT_2', diseaseId: d.id, indexClass: '血常规' })
    await createIndicator({ code: 'CNT_3', diseaseId: d.id, indexClass: '肝功能', status: 0 })
    await createIndicator({ code: 'CNT_4', diseaseId: d.id, indexClass: '' })
    await createIndicator({ code: 'CNT_5', indexClass: '其他病种的分类' })
    await addProject(d.id, '项目一')
    await addProject(d.id, '项目二')
    const expected = { id: d.id, classCount: 2, fieldCount: 4, selectedCount: 3, projectCount: 2 }
    expect(data<Disease>(await call('GET', `/diseases/${d.id}`))).toMatchObject(expected)
    expect(data<Disease[]>(await call('GET', '/diseases')).find((x) => x.id === d.id)).toMatchObject(expected)
    // Switching an indicator on counts it as selected.
    const third = (await t.db.kysely.selectFrom('indicator').select('id').where('code', '=', 'CNT_3').executeTakeFirstOrThrow()).id
    await call('PUT', `/indicators/${third}/status`, { status: 1 })
    expect(data<Disease>(await call('GET', `/diseases/${d.id}`)).selectedCount).toBe(4)
  })
})

describe('create and edit', () => {
  it('creates with defaults, appends to the list, audits', async () => {
    const d = await createDisease({ name: '  高血压  ' })
    expect(d).toMatchObject({ name: '高血压', nameEn: '', icon: 'pulse' })
    const list = data<Disease[]>(await call('GET', '/diseases'))
    expect(list.at(-1)?.id).toBe(d.id)
    expect(await lastAudit('disease.create')).toMatchObject({ username: 'dm', outcome: 'ok', detail: { id: d.id, name: '高血压' } })
  })

  it('a name in use: 409 "{0} already exists", in both languages, on create and on edit', async () => {
    const other = await createDisease({ name: '痛风' })
    await writesNothing(async () => {
      const res = await call('POST', '/diseases', { name: '肺癌' })
      expect(res.statusCode).toBe(409)
      expect(json(res).msg).toBe('病种肺癌已存在')
      expect(json(await call('POST', '/diseases', { name: '肺癌' }, 'en')).msg).toBe('The disease 肺癌 already exists')
      const upd = await call('PUT', `/diseases/${other.id}`, { name: '肺癌' })
      expect(upd.statusCode).toBe(409)
      expect(json(upd).msg).toBe('病种肺癌已存在')
    })
  })

  it('two creates of one name at the same time: one is saved, the others answer 409, never 500', async () => {
    const results = await Promise.all(Array.from({ length: 4 }, () => call('POST', '/diseases', { name: '并发病种' })))
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409, 409, 409])
    expect((await diseaseRows()).filter((d) => d.name === '并发病种')).toHaveLength(1)
  })

  it('edits name, English name and icon; keeping its own name is fine; audits', async () => {
    const d = await createDisease({ name: '哮喘' })
    const same = data<Disease>(await call('PUT', `/diseases/${d.id}`, { name: '哮喘', nameEn: 'Asthma', icon: 'lungs' }))
    expect(same).toMatchObject({ id: d.id, name: '哮喘', nameEn: 'Asthma', icon: 'lungs' })
    const renamed = data<Disease>(await call('PUT', `/diseases/${d.id}`, { name: '支气管哮喘', nameEn: 'Bronchial asthma', icon: 'lungs' }))
    expect(renamed.name).toBe('支气管哮喘')
    expect((await lastAudit('disease.update'))?.detail).toEqual({ id: d.id, name: '支气管哮喘', oldName: '哮喘' })
  })

  it('bad input is refused with 400 naming the field', async () => {
    await writesNothing(async () => {
      for (const bad of [{}, { name: '' }, { name: '   ' }, { name: 'x'.repeat(61) }, { name: 7 }, { name: 'ok', icon: 'y'.repeat(61) }]) {
        const res = await call('POST', '/diseases', bad)
        expect(res.statusCode, JSON.stringify(bad)).toBe(400)
        expect(json(res).msg).toMatch(/name|icon/)
      }
    })
  })

  it('unknown ids: 404 naming the id, in both languages', async () => {
    await writesNothing(async () => {
      for (const [method, payload] of [
        ['GET', undefined],
        ['PUT', { name: '不存在' }],
        ['DELETE', undefined],
      ] as const) {
        const res = await call(method, '/diseases/424242', payload)
        expect(res.statusCode, method).toBe(404)
        expect(json(res).msg).toBe('病种不存在：424242')
        expect(json(await call(method, '/diseases/424242', payload, 'en')).msg).toBe('No such disease: 424242')
      }
      expect((await call('GET', '/diseases/abc')).statusCode).toBe(400)
    })
  })
})

describe('delete (SPEC §8)', () => {
  it('a disease with related projects cannot be deleted', async () => {
    const d = await createDisease({ name: '有项目的病种' })
    await createIndicator({ code: 'DELD_1', diseaseId: d.id })
    await addProject(d.id, '关联项目')
    await writesNothing(async () => {
      const res = await call('DELETE', `/diseases/${d.id}`)
      expect(res.statusCode).toBe(409)
      expect(json(res)).toEqual({ code: 409, msg: '该病种存在关联项目，无法删除', boolResult: false })
      expect(json(await call('DELETE', `/diseases/${d.id}`, undefined, 'en')).msg).toBe('A disease with related projects cannot be deleted')
    })
  })

  it('otherwise it goes, its indicators stay without a disease, and the audit says how many', async () => {
    const d = await createDisease({ name: '待删除病种' })
    const a = await createIndicator({ code: 'DELD_A', diseaseId: d.id, indexClass: '甲' })
    const b = await createIndicator({ code: 'DELD_B', diseaseId: d.id })
    const res = await call('DELETE', `/diseases/${d.id}`)
    expect(res.statusCode).toBe(200)
    expect(json(res)).toMatchObject({ code: 0, boolResult: true })
    expect((await call('GET', `/diseases/${d.id}`)).statusCode).toBe(404)
    expect(data<Disease[]>(await call('GET', '/diseases')).some((x) => x.id === d.id)).toBe(false)
    for (const i of [a, b])
      expect(data<Indicator>(await call('GET', `/indicators/${i.id}`))).toMatchObject({ code: i.code, diseaseId: null })
    expect((await lastAudit('disease.delete'))?.detail).toEqual({ id: d.id, name: '待删除病种', detachedIndicators: 2 })
    // The name is free again.
    expect((await createDisease({ name: '待删除病种' })).id).not.toBe(d.id)
  })
})
