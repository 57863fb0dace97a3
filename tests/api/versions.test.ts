/**
 * Issue 7 item 1 and 2: a published version holds its field definitions (snapshot), whatever
 * happens to the dictionary afterwards; what a published version uses cannot be deleted; a form
 * of 3,000 fields is saved, published and read back.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { maxFormItems, templatePaths, type Layout, type Template, type TemplateVersion } from '../../contract/crf.ts'
import { dictionaryPaths, type Indicator } from '../../contract/dictionary.ts'
import { testApp, type TestApp } from '../support/testApp.ts'
import { apiCalls, type Payload } from '../support/apiCalls.ts'
import { choices } from '../support/choices.ts'

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
  '/',
)

const coded = (...labels: string[]) => labels.map((l, i) => ({ code: String(i), labelZh: l, labelEn: `${l} (en)` }))
const createIndicator = async (p: Payload) => data<Indicator>(await call('POST', dictionaryPaths.indicators, p))
const updateIndicator = (id: number, p: Payload) => call('PUT', dictionaryPaths.indicator(id), p)
const createCrf = async (name: string) => data<Template>(await call('POST', templatePaths.list, { kind: 'crf', name }))
const putLayout = (id: number, layout: Layout, lang?: 'zh' | 'en') =>
  call('PUT', templatePaths.layout(id), layout as unknown as Payload, lang)
const publish = (id: number, lang?: 'zh' | 'en') => call('POST', `${templatePaths.publishCrf}?id=${id}`, undefined, lang)
const version = async (id: number, n: number) => data<TemplateVersion>(await call('GET', templatePaths.version(id, n)))
const section = (key: string, ids: number[], repeating = false) => ({
  key,
  title: key,
  repeating,
  items: ids.map((indicatorId) => ({ indicatorId, required: false })),
})

describe('a published version is self-contained', () => {
  it('options 0–2 published, then edited to 0–5 and renamed: version 1 is unchanged, version 2 has the edit', async () => {
    const grade = await createIndicator({
      code: 'VS_GRADE',
      nameZh: '分级',
      nameEn: 'Grade',
      type: 'single',
      display: 'radio',
      options: coded('无', '轻', '中'),
      defaultValue: '0',
    })
    const shown = await createIndicator({
      code: 'VS_NOTE',
      nameZh: '说明',
      type: 'blank',
      display: 'input',
      dependentFieldId: grade.id,
      dependentValue: '2',
    })
    const crf = await createCrf('VS regression')
    expect((await putLayout(crf.id, { sections: [section('s1', [grade.id, shown.id])] })).statusCode).toBe(200)
    expect((await publish(crf.id)).statusCode).toBe(200)
    const v1 = await version(crf.id, 1)
    expect(v1.indicators.map((f) => [f.code, f.nameZh, f.options.map((o) => o.code)])).toEqual([
      ['VS_GRADE', '分级', ['0', '1', '2']],
      ['VS_NOTE', '说明', []],
    ])
    // The dependent rule is also held by the dependent field's code.
    expect(v1.indicators[1]).toMatchObject({ dependentFieldId: grade.id, dependentCode: 'VS_GRADE', dependentValue: '2' })

    const edited = {
      code: 'VS_GRADE',
      nameZh: '严重程度',
      nameEn: 'Severity',
      type: 'single',
      display: 'select',
      options: coded('无', '很轻', '轻', '中', '重', '危'),
      defaultValue: '5',
    }
    expect((await updateIndicator(grade.id, edited)).statusCode).toBe(200)
    expect(
      (
        await updateIndicator(shown.id, {
          code: 'VS_NOTE2',
          nameZh: '备注',
          type: 'blank',
          display: 'textarea',
          dependentFieldId: grade.id,
          dependentValue: '4',
        })
      ).statusCode,
    ).toBe(200)

    // The dictionary moved; version 1 did not, in any respect.
    expect(await version(crf.id, 1)).toEqual(v1)
    expect(data<Indicator>(await call('GET', dictionaryPaths.indicator(grade.id))).options).toHaveLength(6)

    // Publishing again makes version 2 of the same layout with today's definitions.
    const state = data<{ pending: boolean }>(await call('GET', `${templatePaths.checkCrf}?id=${crf.id}`))
    expect(state.pending).toBe(true)
    expect(data<{ version: number }>(await publish(crf.id)).version).toBe(2)
    const v2 = await version(crf.id, 2)
    expect(v2.layout).toEqual(v1.layout)
    expect(v2.indicators[0]).toMatchObject({ nameZh: '严重程度', display: 'select', defaultValue: '5' })
    expect(v2.indicators[0]?.options.map((o) => o.code)).toEqual(['0', '1', '2', '3', '4', '5'])
    expect(v2.indicators[1]).toMatchObject({ code: 'VS_NOTE2', dependentCode: 'VS_GRADE', dependentValue: '4' })
    expect(await version(crf.id, 1)).toEqual(v1)

    // Nothing changed since: nothing to publish.
    const again = await publish(crf.id, 'en')
    expect([again.statusCode, json(again).msg]).toEqual([409, 'There are no changes to publish'])
  })

  it('the snapshot is written once: the version row does not change when the dictionary does', async () => {
    const x = await createIndicator({ code: 'VS_ONCE', nameZh: '一次', type: 'blank', display: 'input' })
    const crf = await createCrf('VS once')
    await putLayout(crf.id, { sections: [section('a', [x.id])] })
    await publish(crf.id)
    const row = () =>
      t.db.kysely
        .selectFrom('template_version')
        .selectAll()
        .where('template_id', '=', crf.id)
        .where('version', '=', 1)
        .executeTakeFirstOrThrow()
    const before = await row()
    expect(JSON.parse(before.snapshot ?? 'null')).toMatchObject({ fields: [{ code: 'VS_ONCE', nameZh: '一次' }] })
    await updateIndicator(x.id, { code: 'VS_ONCE', nameZh: '两次', type: 'blank', display: 'input', unit: 'kg' })
    expect(await row()).toEqual(before)
  })

  it('an indicator or a template a published version uses cannot be deleted: 409, prohibit delete, nothing deleted', async () => {
    const x = await createIndicator({ code: 'VS_KEEP', nameZh: '保留', type: 'single', display: 'radio', options: choices('是', '否') })
    const crf = await createCrf('VS keep')
    await putLayout(crf.id, { sections: [section('a', [x.id])] })
    await publish(crf.id)
    // The draft no longer holds it: only the published version does.
    await putLayout(crf.id, { sections: [] })
    const delIndicator = await call('DELETE', dictionaryPaths.indicator(x.id), undefined, 'en')
    expect([delIndicator.statusCode, json(delIndicator).msg]).toEqual([
      409,
      'Prohibit delete: the indicator is used by a published form version',
    ])
    const delCrf = await call('DELETE', templatePaths.one(crf.id))
    expect([delCrf.statusCode, json(delCrf).msg]).toEqual([409, '禁止删除：表单已有发布的版本'])
    expect((await call('GET', dictionaryPaths.indicator(x.id))).statusCode).toBe(200)
    expect((await version(crf.id, 1)).indicators.map((f) => f.code)).toEqual(['VS_KEEP'])
  })
})

describe('large forms (issue 7 item 2)', () => {
  it(
    `a 3,000-field CRF is saved, published and read back; over ${maxFormItems} fields is refused with a message`,
    { timeout: 120_000 },
    async () => {
      const now = new Date().toISOString()
      const ids: number[] = []
      for (let start = 0; start < 3001; start += 500) {
        const rows = Array.from({ length: Math.min(500, 3001 - start) }, (_, k) => {
          const i = start + k
          return {
            code: `BIG_${String(i).padStart(4, '0')}`,
            name_zh: `字段${i}`,
            name_en: `Field ${i}`,
            comment: '',
            type: i % 3 === 0 ? 'single' : 'blank',
            display: i % 3 === 0 ? 'radio' : 'input',
            data_type: 'text',
            options: i % 3 === 0 ? JSON.stringify(choices('是', '否')) : '[]',
            unit: '',
            status: 1,
            index_class: '',
            category: 'all',
            created_at: now,
            updated_at: now,
          }
        })
        const inserted = await t.db.kysely.insertInto('indicator').values(rows).returning('id').execute()
        ids.push(...inserted.map((r) => r.id))
      }
      const crf = await createCrf('VS big')
      const fields = ids.slice(0, 3000)
      const layout: Layout = { sections: [section('first', fields.slice(0, 2500)), section('rows', fields.slice(2500), true)] }
      expect((await putLayout(crf.id, layout)).statusCode).toBe(200)
      expect((await publish(crf.id)).statusCode).toBe(200)
      const v1 = await version(crf.id, 1)
      expect(v1.indicators).toHaveLength(3000)
      expect(v1.layout.sections.map((s) => s.items.length)).toEqual([2500, 500])
      expect(v1.indicators.map((f) => f.id)).toEqual(fields)
      const current = data<TemplateVersion>(await call('GET', templatePaths.layout(crf.id)))
      expect(current.indicators).toHaveLength(3000)
      expect(data<Template>(await call('GET', templatePaths.one(crf.id))).indexCount).toBe(3000)

      // One more field is a new draft of 3,001; one over the limit (5,001) is refused before any write.
      expect(
        (await putLayout(crf.id, { sections: [section('a', ids.slice(0, 2600)), section('b', ids.slice(2600, 3001))] })).statusCode,
      ).toBe(200)
      const extra = await t.db.kysely
        .insertInto('indicator')
        .values(
          Array.from({ length: 2000 }, (_, i) => ({
            code: `BIG_X${i}`,
            name_zh: `x${i}`,
            name_en: '',
            comment: '',
            type: 'blank',
            display: 'input',
            data_type: 'text',
            options: '[]',
            unit: '',
            status: 1,
            index_class: '',
            category: 'all',
            created_at: now,
            updated_at: now,
          })),
        )
        .returning('id')
        .execute()
      const all = [...ids, ...extra.map((r) => r.id)]
      const over: Layout = { sections: [section('a', all.slice(0, 2501)), section('b', all.slice(2501, 5001))] }
      const res = await putLayout(crf.id, over, 'en')
      expect([res.statusCode, json(res).msg]).toEqual([400, 'A form holds at most 5000 fields; this one has 5001'])
      const oneSection = await putLayout(crf.id, { sections: [section('a', all.slice(0, 5001))] })
      expect([oneSection.statusCode, json(oneSection).msg]).toEqual([400, '一个表单最多5000个字段，当前5001个'])
      expect(data<TemplateVersion>(await call('GET', templatePaths.layout(crf.id))).indicators).toHaveLength(3001)
    },
  )
})
