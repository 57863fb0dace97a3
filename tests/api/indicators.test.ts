import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Indicator, IndicatorPage, IndicatorSortKey } from '../../contract/dictionary.ts'
import { indicatorSortKeys } from '../../contract/dictionary.ts'
import { testApp, type TestApp } from '../support/testApp.ts'
import { apiCalls, type Payload } from '../support/apiCalls.ts'
import { choices } from '../support/choices.ts'

/**
 * The indicator API (issue 4 item 2) on the database of this project (api-sqlite or
 * api-postgres): every rule answered with a message naming the field, blocked deletions, the
 * frozen type, status switch, filters and keyset paging, and nothing written on any refusal.
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

/** A fill-blank text field; `extra` overrides any attribute. */
const blank = (code: string, extra: Payload = {}): Payload => ({ code, nameZh: `指标${code}`, type: 'blank', display: 'input', ...extra })
const single = (code: string, options: string[], extra: Payload = {}): Payload => ({
  code,
  nameZh: `单选${code}`,
  type: 'single',
  display: 'radio',
  options: choices(...options),
  ...extra,
})
const create = async (p: Payload) => data<Indicator>(await call('POST', '/indicators', p))

const countRows = async (table: 'indicator' | 'audit_log') =>
  Number(
    (
      await t.db.kysely
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  )

/** Runs `act` and checks that neither the indicator table nor the audit log changed. */
async function writesNothing(act: () => Promise<unknown>) {
  const before = [await countRows('indicator'), await countRows('audit_log')]
  const snapshot = await t.db.kysely.selectFrom('indicator').selectAll().orderBy('id').execute()
  await act()
  expect([await countRows('indicator'), await countRows('audit_log')]).toEqual(before)
  expect(await t.db.kysely.selectFrom('indicator').selectAll().orderBy('id').execute()).toEqual(snapshot)
}

async function auditRows(action: string) {
  const rows = await t.db.kysely.selectFrom('audit_log').selectAll().where('action', '=', action).orderBy('id').execute()
  return rows.map((r) => ({ ...r, detail: JSON.parse(r.detail) as Record<string, unknown> }))
}

/** A CRF holding `indicatorId` in one version of the given state, written as the templates work would. */
async function templateHolding(indicatorId: number, state: 'draft' | 'published') {
  const at = new Date().toISOString()
  const db = t.db.kysely
  const tpl = await db
    .insertInto('template')
    .values({
      kind: 'crf',
      name: `CRF ${indicatorId} ${state}`,
      description: '',
      collect_type: 'all',
      status: 1,
      created_at: at,
      updated_at: at,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  const version = await db
    .insertInto('template_version')
    .values({ template_id: tpl.id, version: 1, state, sections: '[]', created_at: at, published_at: state === 'published' ? at : null })
    .returning('id')
    .executeTakeFirstOrThrow()
  await db
    .insertInto('template_item')
    .values({ version_id: version.id, section_key: 's1', position: 0, indicator_id: indicatorId, required: 0 })
    .execute()
}

describe('a session is required', () => {
  it('every route answers 401 without a token, before looking at the input', async () => {
    const existing = await create(blank('AUTH_1'))
    const attempts: [Parameters<typeof call>[0], string, Payload | undefined][] = [
      ['GET', '/indicators', undefined],
      ['GET', `/indicators/${existing.id}`, undefined],
      ['POST', '/indicators', blank('AUTH_2')],
      ['POST', '/indicators', { nonsense: true }],
      ['PUT', `/indicators/${existing.id}`, blank('AUTH_1', { nameZh: '改' })],
      ['PUT', `/indicators/${existing.id}/status`, { status: 0 }],
      ['DELETE', `/indicators/${existing.id}`, undefined],
    ]
    await writesNothing(async () => {
      for (const [method, url, payload] of attempts) {
        const res = await call(method, url, payload, undefined, false)
        expect(res.statusCode, `${method} ${url}`).toBe(401)
        expect(json(res).code).not.toBe(0)
      }
    })
    expect(data<Indicator>(await call('GET', `/indicators/${existing.id}`)).nameZh).toBe('指标AUTH_1')
  })

  it('a token in the query is accepted too (SPEC §7)', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/dictionary/indicators', query: { token, limit: '1' } })
    expect(res.statusCode).toBe(200)
  })
})

describe('create, read, update', () => {
  it('creates with the defaults, reads it back, audits it', async () => {
    const created = await create(blank('BP_SYS', { nameEn: 'Systolic BP', dataType: 'integer', unit: 'mmHg', minimum: 0, maximum: 300 }))
    expect(created).toMatchObject({
      code: 'BP_SYS',
      nameZh: '指标BP_SYS',
      nameEn: 'Systolic BP',
      comment: '',
      type: 'blank',
      display: 'input',
      dataType: 'integer',
      options: [],
      dependentFieldId: null,
      dependentValue: null,
      unit: 'mmHg',
      minimum: 0,
      maximum: 300,
      dateFormat: null,
      defaultValue: null,
      status: 1,
      indexClass: '',
      category: 'all',
      diseaseId: null,
      inUse: false,
    })
    expect(data<Indicator>(await call('GET', `/indicators/${created.id}`))).toEqual(created)
    const rows = await auditRows('indicator.create')
    expect(rows.at(-1)).toMatchObject({ username: 'dm', outcome: 'ok', detail: { id: created.id, code: 'BP_SYS' } })
  })

  it('stores every attribute of SPEC §3 and answers it unchanged', async () => {
    const disease = (await t.db.kysely.selectFrom('disease').select('id').where('name', '=', '肺癌').executeTakeFirstOrThrow()).id
    const full = {
      code: 'SMOKE',
      nameZh: '吸烟史',
      nameEn: 'Smoking history',
      comment: '包括电子烟',
      type: 'multiple',
      display: 'checkbox',
      dataType: 'text',
      options: choices('从不', '既往', '现在'),
      dependentFieldId: null,
      dependentValue: null,
      unit: '',
      minimum: null,
      maximum: null,
      dateFormat: null,
      defaultValue: '1|2',
      status: 0,
      indexClass: '生活史',
      category: 'object',
      diseaseId: disease,
    }
    const created = await create(full)
    expect(created).toMatchObject(full)
    const date = await create({
      code: 'DIAG_DATE',
      nameZh: '确诊日期',
      type: 'date',
      display: 'input',
      dateFormat: 'YYYY-MM-DD',
      defaultValue: '2024-02-29',
    })
    expect(date).toMatchObject({ type: 'date', dateFormat: 'YYYY-MM-DD', defaultValue: '2024-02-29' })
  })

  it('updates every attribute, audits it, and bumps updatedAt', async () => {
    const created = await create(blank('UPD_1'))
    await new Promise((r) => setTimeout(r, 5))
    const res = await call(
      'PUT',
      `/indicators/${created.id}`,
      single('UPD_2', ['是', '否'], { nameEn: 'Yes/no', defaultValue: '2', indexClass: '一般' }),
    )
    const updated = data<Indicator>(res)
    expect(updated).toMatchObject({
      id: created.id,
      code: 'UPD_2',
      type: 'single',
      options: choices('是', '否'),
      defaultValue: '2',
      indexClass: '一般',
    })
    expect(updated.createdAt).toBe(created.createdAt)
    expect(updated.updatedAt > created.updatedAt).toBe(true)
    expect((await auditRows('indicator.update')).at(-1)?.detail).toEqual({ id: created.id, code: 'UPD_2', oldCode: 'UPD_1' })
  })

  it('ignores fields that are not part of an indicator', async () => {
    const created = await create({ ...blank('EXTRA_1'), id: 424242, inUse: true, createdAt: 'x' })
    expect(created.id).not.toBe(424242)
    expect(created.inUse).toBe(false)
  })

  it('unknown ids answer 404 naming the id, in both languages', async () => {
    for (const [method, url, payload] of [
      ['GET', '/indicators/999999', undefined],
      ['PUT', '/indicators/999999', blank('NOPE')],
      ['PUT', '/indicators/999999/status', { status: 0 }],
      ['DELETE', '/indicators/999999', undefined],
    ] as const) {
      await writesNothing(async () => {
        const zh = await call(method, url, payload)
        expect(zh.statusCode).toBe(404)
        expect(json(zh).msg).toBe('指标不存在：999999')
        expect(json(await call(method, url, payload, 'en')).msg).toBe('No such indicator: 999999')
      })
    }
  })

  it('input that does not fit the contract is refused with 400', async () => {
    await writesNothing(async () => {
      for (const bad of [
        blank('9STARTS_WITH_DIGIT'),
        blank('HAS SPACE'),
        { ...blank('NO_NAME'), nameZh: '  ' },
        { ...blank('BAD_TYPE'), type: 'slider' },
        { ...blank('BAD_NUM'), minimum: 'ten' },
        { ...blank('BAD_CAT'), category: 'everything' },
      ]) {
        const res = await call('POST', '/indicators', bad)
        expect(res.statusCode, JSON.stringify(bad)).toBe(400)
        expect(json(res).msg).not.toBe('')
      }
    })
  })
})

describe('the rules of contract/indicatorRules.ts, each naming its field', () => {
  // [what, payload, zh message, en message]
  const cases: [string, Payload, string, string][] = [
    [
      'minimum above maximum',
      blank('R_MINMAX', { dataType: 'decimal', minimum: 1, maximum: 0 }),
      '最小值: 最小值1不能大于最大值0',
      'Minimum: The minimum 1 must not exceed the maximum 0',
    ],
    [
      'default outside the range',
      blank('R_RANGE', { dataType: 'integer', minimum: 0, maximum: 10, defaultValue: '11' }),
      '默认值: 默认值必须介于0和10之间',
      'Default value: The default value must be between 0 and 10',
    ],
    [
      'single default not among the options',
      single('R_DEF', ['男', '女'], { defaultValue: '3' }),
      '默认值: 默认值必须存在',
      'Default value: Default value must exist',
    ],
    [
      'multiple default with one unknown choice',
      { ...single('R_MDEF', ['a', 'b']), type: 'multiple', display: 'checkbox', defaultValue: '1|3' },
      '默认值: 默认值必须存在',
      'Default value: Default value must exist',
    ],
    [
      'an option without a label',
      single('R_OPT_EMPTY', ['是', '  ']),
      '选项值: 每个选项限制在1-500个字符',
      'Option values: Each option limited to 1-500 characters',
    ],
    [
      'a label over 500 characters',
      single('R_OPT_LONG', ['x'.repeat(501)]),
      '选项值: 每个选项限制在1-500个字符',
      'Option values: Each option limited to 1-500 characters',
    ],
    [
      'a duplicate option code',
      { ...single('R_OPT_DUP', []), options: [...choices('是'), ...choices('否')] },
      '选项值: 1已存在',
      'Option values: 1 already exists',
    ],
    [
      'an option code of the wrong shape',
      { ...single('R_OPT_CODE', []), options: [{ code: 'a b', labelZh: '是', labelEn: 'Yes' }] },
      '选项值: 选项编码a b无效：1-32个字母、数字、下划线或点，可带负号',
      'Option values: The option code a b is invalid: 1-32 letters, digits, underscores or dots, optionally after a minus sign',
    ],
    [
      'a choice without options',
      single('R_OPT_NONE', []),
      '选项值: 请至少填写一个有效的选项',
      'Option values: Fill in at least one valid option',
    ],
    [
      'an integer field with a decimal minimum',
      blank('R_INT_MIN', { dataType: 'integer', minimum: 1.5 }),
      '最小值: 请输入整数',
      'Minimum: Enter an integer',
    ],
    [
      'an integer field with a decimal default',
      blank('R_INT_DEF', { dataType: 'integer', defaultValue: '2.5' }),
      '默认值: 请输入整数',
      'Default value: Enter an integer',
    ],
    [
      'a decimal field with a text default',
      blank('R_DEC_DEF', { dataType: 'decimal', defaultValue: 'abc' }),
      '默认值: 请输入整数或小数',
      'Default value: Enter an integer or a decimal',
    ],
    [
      'a display form the type does not allow',
      blank('R_DISPLAY', { display: 'radio' }),
      '显示形式: 显示形式radio不适用于该类型',
      'Display form: The display form radio does not fit this type',
    ],
    [
      'a date without format',
      { code: 'R_DATE', nameZh: '日期', type: 'date', display: 'input' },
      '日期格式: 请选择日期格式',
      'Date format: Please select a date format',
    ],
    [
      'a date default in another format',
      { code: 'R_DATE_DEF', nameZh: '日期', type: 'date', display: 'input', dateFormat: 'YYYY-MM-DD', defaultValue: '2024/01/01' },
      '默认值: 不符合格式YYYY-MM-DD',
      'Default value: Does not match pattern YYYY-MM-DD',
    ],
    [
      'an impossible date default',
      { code: 'R_DATE_FEB', nameZh: '日期', type: 'date', display: 'input', dateFormat: 'YYYY-MM-DD', defaultValue: '2023-02-29' },
      '默认值: 日期不存在：2023-02-29',
      'Default value: There is no such date: 2023-02-29',
    ],
  ]

  it.each(cases)('%s: 400, on create and on update, nothing written', async (_what, payload, zh, en) => {
    const existing = await create(blank(`OK_${String(payload.code)}`))
    await writesNothing(async () => {
      const a = await call('POST', '/indicators', payload)
      expect(a.statusCode).toBe(400)
      expect(json(a)).toEqual({ code: 400, msg: zh, boolResult: false })
      expect(json(await call('POST', '/indicators', payload, 'en')).msg).toBe(en)
      const b = await call('PUT', `/indicators/${existing.id}`, payload, 'en')
      expect(b.statusCode).toBe(400)
      expect(json(b).msg).toBe(en)
    })
  })

  it('several broken rules are all named, in order', async () => {
    const res = await call('POST', '/indicators', {
      ...single('R_MANY', [], { defaultValue: 'z', minimum: 5, maximum: 1 }),
      options: [...choices('a'), ...choices('a')],
    })
    expect(res.statusCode).toBe(400)
    expect(json(res).msg).toBe('选项值: 1已存在; 最小值: 最小值5不能大于最大值1; 默认值: 默认值必须存在')
  })

  it('a dependent field without a value is refused', async () => {
    const sex = await create(single('R_SEX', ['男', '女']))
    const res = await call('POST', '/indicators', blank('R_DEPV', { dependentFieldId: sex.id }), 'en')
    expect(res.statusCode).toBe(400)
    expect(json(res).msg).toBe('Dependent value: Please input the value of the dependent field')
  })

  it('values at the edges pass: min = max, default on the bound, 500-character label', async () => {
    await create(blank('EDGE_1', { dataType: 'integer', minimum: 3, maximum: 3, defaultValue: '3' }))
    await create(blank('EDGE_2', { dataType: 'decimal', minimum: -1.5, maximum: 2.5, defaultValue: '-1.5' }))
    await create(single('EDGE_3', ['y'.repeat(500), '否'], { defaultValue: '2' }))
  })
})

describe('rules that need the database', () => {
  it('a duplicate code: 409 "{0} already exists", on create and on update', async () => {
    const a = await create(blank('DUP_A'))
    const b = await create(blank('DUP_B'))
    await writesNothing(async () => {
      const res = await call('POST', '/indicators', blank('DUP_A', { nameZh: '另一个' }))
      expect(res.statusCode).toBe(409)
      expect(json(res).msg).toBe('DUP_A已存在')
      expect(json(await call('POST', '/indicators', blank('DUP_A'), 'en')).msg).toBe('DUP_A already exists')
      const upd = await call('PUT', `/indicators/${b.id}`, blank('DUP_A'))
      expect(upd.statusCode).toBe(409)
      expect(json(upd).msg).toBe('DUP_A已存在')
    })
    // Keeping one's own code is no conflict.
    expect(data<Indicator>(await call('PUT', `/indicators/${a.id}`, blank('DUP_A', { nameZh: '改名' }))).nameZh).toBe('改名')
  })

  it('two creates of one code at the same time: one is saved, the other answers 409, never 500', async () => {
    const results = await Promise.all(
      Array.from({ length: 4 }, (_, i) => call('POST', '/indicators', blank('RACE_1', { nameZh: `竞争${i}` }))),
    )
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409, 409, 409])
    for (const r of results.filter((x) => x.statusCode === 409)) expect(json(r).msg).toBe('RACE_1已存在')
    const rows = await t.db.kysely.selectFrom('indicator').select('id').where('code', '=', 'RACE_1').execute()
    expect(rows).toHaveLength(1)
    expect((await auditRows('indicator.create')).filter((r) => r.detail.code === 'RACE_1')).toHaveLength(1)
  })

  it('an unknown disease is refused', async () => {
    await writesNothing(async () => {
      const res = await call('POST', '/indicators', blank('NO_DISEASE', { diseaseId: 987654 }))
      expect(res.statusCode).toBe(400)
      expect(json(res).msg).toBe('病种不存在：987654')
    })
  })

  it('the dependent field must exist, not be itself, and the value must be among its options', async () => {
    const sex = await create(single('DEP_SEX', ['男', '女']))
    const age = await create(blank('DEP_AGE', { dataType: 'integer' }))
    await writesNothing(async () => {
      const missing = await call('POST', '/indicators', blank('DEP_1', { dependentFieldId: 999999, dependentValue: 'x' }))
      expect(missing.statusCode).toBe(400)
      expect(json(missing).msg).toBe('依赖字段不存在：999999')
      expect(json(await call('POST', '/indicators', blank('DEP_1', { dependentFieldId: 999999, dependentValue: 'x' }), 'en')).msg).toBe(
        'The dependent field does not exist: 999999',
      )
      const notOption = await call('POST', '/indicators', blank('DEP_1', { dependentFieldId: sex.id, dependentValue: '未知' }))
      expect(notOption.statusCode).toBe(400)
      expect(json(notOption).msg).toBe('依赖取值必须是依赖字段的选项之一')
      const self = await call('PUT', `/indicators/${age.id}`, blank('DEP_AGE', { dependentFieldId: age.id, dependentValue: '1' }))
      expect(self.statusCode).toBe(400)
      expect(json(self).msg).toBe('指标不能依赖自身')
    })
    const pregnant = await create(single('DEP_PREG', ['是', '否'], { dependentFieldId: sex.id, dependentValue: '2' }))
    expect(pregnant).toMatchObject({ dependentFieldId: sex.id, dependentValue: '2' })
    // A field without options takes any value to depend on.
    await create(blank('DEP_ADULT', { dependentFieldId: age.id, dependentValue: '18' }))
  })

  it('a dependency cycle is refused, naming the codes around it', async () => {
    const a = await create(single('CYC_A', ['1', '2']))
    const b = await create(single('CYC_B', ['1', '2'], { dependentFieldId: a.id, dependentValue: '1' }))
    const c = await create(single('CYC_C', ['1', '2'], { dependentFieldId: b.id, dependentValue: '2' }))
    await writesNothing(async () => {
      const two = await call('PUT', `/indicators/${a.id}`, single('CYC_A', ['1', '2'], { dependentFieldId: b.id, dependentValue: '1' }))
      expect(two.statusCode).toBe(400)
      expect(json(two).msg).toBe('依赖字段形成循环：CYC_A → CYC_B → CYC_A')
      const three = await call(
        'PUT',
        `/indicators/${a.id}`,
        single('CYC_A', ['1', '2'], { dependentFieldId: c.id, dependentValue: '1' }),
        'en',
      )
      expect(three.statusCode).toBe(400)
      expect(json(three).msg).toBe('The dependent fields form a cycle: CYC_A → CYC_C → CYC_B → CYC_A')
    })
    // Depending on something outside the chain is fine.
    const d = await create(single('CYC_D', ['1']))
    await call('PUT', `/indicators/${a.id}`, single('CYC_A', ['1', '2'], { dependentFieldId: d.id, dependentValue: '1' }))
    expect(data<Indicator>(await call('GET', `/indicators/${a.id}`)).dependentFieldId).toBe(d.id)
  })

  it('an option that a dependent field relies on cannot be removed', async () => {
    const sex = await create(single('OPT_SEX', ['男', '女']))
    await create(single('OPT_PREG', ['是', '否'], { dependentFieldId: sex.id, dependentValue: '2' }))
    await writesNothing(async () => {
      const res = await call('PUT', `/indicators/${sex.id}`, single('OPT_SEX', ['男']))
      expect(res.statusCode).toBe(409)
      expect(json(res).msg).toBe('指标OPT_PREG依赖选项2，该选项不能删除')
    })
    await call('PUT', `/indicators/${sex.id}`, single('OPT_SEX', ['男', '女', '其他']))
  })

  it('type and data type are frozen once a published form holds the indicator; other edits stay allowed', async () => {
    const weight = await create(blank('FRZ_WEIGHT', { dataType: 'decimal', unit: 'kg' }))
    const draftOnly = await create(blank('FRZ_DRAFT', { dataType: 'decimal' }))
    await templateHolding(weight.id, 'published')
    await templateHolding(draftOnly.id, 'draft')
    expect(data<Indicator>(await call('GET', `/indicators/${weight.id}`)).inUse).toBe(true)
    expect(data<Indicator>(await call('GET', `/indicators/${draftOnly.id}`)).inUse).toBe(false)
    await writesNothing(async () => {
      for (const change of [{ dataType: 'integer' }, { dataType: 'text' }, { type: 'date', dateFormat: 'YYYY-MM-DD' }]) {
        const res = await call('PUT', `/indicators/${weight.id}`, blank('FRZ_WEIGHT', { dataType: 'decimal', unit: 'kg', ...change }))
        expect(res.statusCode, JSON.stringify(change)).toBe(409)
        expect(json(res).msg).toBe('指标已用于已发布的表单，不能再修改类型或数据类型')
      }
      const en = await call('PUT', `/indicators/${weight.id}`, blank('FRZ_WEIGHT', { dataType: 'integer' }), 'en')
      expect(json(en).msg).toBe('The indicator is in a published form: its type and data type can no longer change')
    })
    const renamed = data<Indicator>(
      await call('PUT', `/indicators/${weight.id}`, blank('FRZ_WEIGHT', { dataType: 'decimal', unit: 'g', nameZh: '体重' })),
    )
    expect(renamed).toMatchObject({ unit: 'g', nameZh: '体重', inUse: true })
    // A draft is not yet data: its indicators may still change type.
    expect(data<Indicator>(await call('PUT', `/indicators/${draftOnly.id}`, blank('FRZ_DRAFT', { dataType: 'integer' }))).dataType).toBe(
      'integer',
    )
  })
})

describe('status switch', () => {
  it('switches off and on, audits each, and the list filters by it', async () => {
    const disease = await t.db.kysely
      .insertInto('disease')
      .values({ name: '状态测试', icon: 'pulse', created_at: 'x', updated_at: 'x' })
      .returning('id')
      .executeTakeFirstOrThrow()
    const one = await create(blank('STATUS_1', { diseaseId: disease.id }))
    const two = await create(blank('STATUS_2', { diseaseId: disease.id }))
    const off = data<Indicator>(await call('PUT', `/indicators/${one.id}/status`, { status: 0 }))
    expect(off).toMatchObject({ id: one.id, status: 0, code: 'STATUS_1' })
    expect((await auditRows('indicator.status')).at(-1)?.detail).toEqual({ id: one.id, code: 'STATUS_1', from: 1, to: 0 })
    const list = (status: number) =>
      call('GET', `/indicators?diseaseId=${disease.id}&status=${status}`).then((r) => data<IndicatorPage>(r).rows.map((x) => x.code))
    expect(await list(0)).toEqual(['STATUS_1'])
    expect(await list(1)).toEqual(['STATUS_2'])
    await call('PUT', `/indicators/${one.id}/status`, { status: 1 })
    expect(await list(1)).toEqual(['STATUS_1', 'STATUS_2'])
    expect(data<Indicator>(await call('GET', `/indicators/${two.id}`)).status).toBe(1)
    await writesNothing(async () => {
      expect((await call('PUT', `/indicators/${one.id}/status`, { status: 2 })).statusCode).toBe(400)
      expect((await call('PUT', `/indicators/${one.id}/status`, {})).statusCode).toBe(400)
    })
  })
})

describe('delete', () => {
  it('deletes, audits, and the indicator is gone', async () => {
    const gone = await create(blank('DEL_1'))
    const res = await call('DELETE', `/indicators/${gone.id}`)
    expect(res.statusCode).toBe(200)
    expect(json(res)).toMatchObject({ code: 0, boolResult: true })
    expect((await call('GET', `/indicators/${gone.id}`)).statusCode).toBe(404)
    expect((await auditRows('indicator.delete')).at(-1)?.detail).toEqual({ id: gone.id, code: 'DEL_1' })
  })

  it('is refused while another indicator depends on it', async () => {
    const sex = await create(single('DEL_SEX', ['男', '女']))
    const preg = await create(single('DEL_PREG', ['是', '否'], { dependentFieldId: sex.id, dependentValue: '2' }))
    await writesNothing(async () => {
      const res = await call('DELETE', `/indicators/${sex.id}`)
      expect(res.statusCode).toBe(409)
      expect(json(res).msg).toBe('有其他指标依赖该指标，删除失败')
      expect(json(await call('DELETE', `/indicators/${sex.id}`, undefined, 'en')).msg).toBe(
        'Other indicators depend on this one, deletion failed',
      )
    })
    // Once the dependent is gone, so can it be.
    expect((await call('DELETE', `/indicators/${preg.id}`)).statusCode).toBe(200)
    expect((await call('DELETE', `/indicators/${sex.id}`)).statusCode).toBe(200)
  })

  it('is refused while a form version holds it: a draft says so, a published one prohibits delete', async () => {
    const said = {
      draft: ['指标已用于表单，删除失败', 'The indicator is used in a form, deletion failed'],
      published: ['禁止删除：指标已用于已发布的表单版本', 'Prohibit delete: the indicator is used by a published form version'],
    }
    for (const state of ['draft', 'published'] as const) {
      const held = await create(blank(`DEL_HELD_${state}`))
      await templateHolding(held.id, state)
      await writesNothing(async () => {
        const res = await call('DELETE', `/indicators/${held.id}`)
        expect(res.statusCode).toBe(409)
        expect(json(res).msg).toBe(said[state][0])
        expect(json(await call('DELETE', `/indicators/${held.id}`, undefined, 'en')).msg).toBe(said[state][1])
      })
    }
  })
})

describe('the audit log grows with every change', () => {
  it('create, update, status, delete: one row each, in order', async () => {
    const before = await countRows('audit_log')
    const x = await create(blank('AUD_1'))
    await call('PUT', `/indicators/${x.id}`, blank('AUD_1', { nameZh: '改' }))
    await call('PUT', `/indicators/${x.id}/status`, { status: 0 })
    await call('DELETE', `/indicators/${x.id}`)
    const rows = await t.db.kysely.selectFrom('audit_log').selectAll().orderBy('id').execute()
    expect(rows.slice(before).map((r) => [r.action, JSON.parse(r.detail).id])).toEqual([
      ['indicator.create', x.id],
      ['indicator.update', x.id],
      ['indicator.status', x.id],
      ['indicator.delete', x.id],
    ])
  })
})

describe('list filters', () => {
  let diseaseId: number
  beforeAll(async () => {
    diseaseId = (
      await t.db.kysely
        .insertInto('disease')
        .values({ name: '筛选测试', icon: 'pulse', created_at: 'x', updated_at: 'x' })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id
    const rows: Payload[] = [
      blank('FLT_HB', { nameZh: '血红蛋白', nameEn: 'Hemoglobin', indexClass: '血常规', category: 'object' }),
      blank('FLT_WBC', { nameZh: '白细胞计数', nameEn: 'White blood cells', indexClass: '血常规', category: 'followUp' }),
      blank('FLT_ALT', { nameZh: '谷丙转氨酶', nameEn: 'Alanine aminotransferase', indexClass: '肝功能', category: 'followUp', status: 0 }),
      single('FLT_SEX', ['男', '女'], { nameZh: '性别', nameEn: 'Sex', indexClass: '人口学', category: 'object' }),
      {
        code: 'FLT_DOB',
        nameZh: '出生日期',
        nameEn: 'Date of birth',
        type: 'date',
        display: 'input',
        dateFormat: 'YYYY-MM-DD',
        indexClass: '人口学',
      },
      blank('XHB_TOTAL', { nameZh: '总血红蛋白', nameEn: 'Total hemoglobin', indexClass: '血常规' }),
    ]
    for (const r of rows) await create({ ...r, diseaseId })
    // One outside the disease, matching every filter below that does not name the disease.
    await create(blank('FLT_OTHER', { nameZh: '血红蛋白（外）', indexClass: '血常规', category: 'object' }))
  })
  const codes = async (query: string, lang?: 'en') => {
    const page = data<IndicatorPage>(await call('GET', `/indicators?diseaseId=${diseaseId}&${query}`, undefined, lang))
    return { codes: page.rows.map((r) => r.code), total: page.total }
  }

  it.each([
    ['', ['FLT_ALT', 'FLT_DOB', 'FLT_HB', 'FLT_SEX', 'FLT_WBC', 'XHB_TOTAL']],
    ['indexClass=血常规', ['FLT_HB', 'FLT_WBC', 'XHB_TOTAL']],
    ['category=followUp', ['FLT_ALT', 'FLT_WBC']],
    ['type=single', ['FLT_SEX']],
    ['type=date', ['FLT_DOB']],
    ['status=0', ['FLT_ALT']],
    ['status=1&category=followUp', ['FLT_WBC']],
    ['q=FLT_', ['FLT_ALT', 'FLT_DOB', 'FLT_HB', 'FLT_SEX', 'FLT_WBC']],
    ['q=FLT_S', ['FLT_SEX']],
    ['q=血红', ['FLT_HB']],
    ['q=Hemo', ['FLT_HB']],
    ['q=hemo', ['FLT_HB']],
    ['q=HEMO', ['FLT_HB']],
    ['q=flt_s', ['FLT_SEX']],
    ['q=蛋白', []],
    ['q=Total', ['XHB_TOTAL']],
    ['q=%20%E8%A1%80%20', ['FLT_HB']],
    ['q=白&indexClass=血常规', ['FLT_WBC']],
    ['q=nothing', []],
  ])('%s', async (query, expected) => {
    const got = await codes(query)
    expect(got.codes).toEqual(expected)
    expect(got.total).toBe(expected.length)
  })

  it('q matches a prefix, not a middle, of code and names, whatever the disease', async () => {
    const page = data<IndicatorPage>(await call('GET', `/indicators?q=${encodeURIComponent('血红蛋白')}&limit=1000`))
    expect(page.rows.map((r) => r.code).sort()).toEqual(['FLT_HB', 'FLT_OTHER'])
  })

  it('a prefix followed by characters beyond U+FFFF is found (the range bound is not \\uffff)', async () => {
    await create(blank('EMOJI_1', { nameZh: '血糖😀', diseaseId }))
    expect((await codes(`q=${encodeURIComponent('血糖')}`)).codes).toEqual(['EMOJI_1'])
    expect((await codes(`q=${encodeURIComponent('血糖😀')}`)).codes).toEqual(['EMOJI_1'])
  })

  it('q ignores the case of ASCII letters: bp finds BP_SYS and Bp_x, BLOOD finds Blood pressure', async () => {
    await create(blank('Bp_x', { nameZh: '血压x', nameEn: 'Blood pressure', diseaseId }))
    await create(blank('BQ_NEAR', { nameZh: '近邻', nameEn: 'Bloodless', diseaseId }))
    const everywhere = async (q: string) =>
      data<IndicatorPage>(await call('GET', `/indicators?q=${encodeURIComponent(q)}&limit=1000`))
        .rows.map((r) => r.code)
        .sort()
    // BP_SYS is the one created above ('create, read, update'), with no disease.
    for (const q of ['bp', 'BP', 'bP', 'Bp']) expect(await everywhere(q), q).toEqual(['BP_SYS', 'Bp_x'])
    expect(await everywhere('bp_s')).toEqual(['BP_SYS'])
    expect((await codes('q=BLOOD')).codes).toEqual(['BQ_NEAR', 'Bp_x'])
    expect((await codes('q=blood%20p')).codes).toEqual(['Bp_x'])
    expect((await codes('q=bloodl')).codes).toEqual(['BQ_NEAR'])
    // Chinese has no case: its prefix still matches exactly, and only as a prefix.
    expect((await codes(`q=${encodeURIComponent('血压')}`)).codes).toEqual(['Bp_x'])
    expect((await codes(`q=${encodeURIComponent('压')}`)).codes).toEqual([])
    expect((await codes('q=blood')).total).toBe(2)
  })

  it('refuses a malformed cursor, a limit over 1,000 and an unknown sort key', async () => {
    for (const q of [
      'after=notacursor',
      `after=${Buffer.from('["x"]').toString('base64url')}`,
      'limit=1001',
      'limit=0',
      'sort=comment',
      'order=up',
    ]) {
      const res = await call('GET', `/indicators?${q}`)
      expect(res.statusCode, q).toBe(400)
    }
    expect(json(await call('GET', '/indicators?after=notacursor', undefined, 'en')).msg).toBe('page position is not valid')
  })
})

describe('keyset paging over 250 rows', () => {
  // A database of its own, so an unfiltered walk sees exactly these rows.
  let p: TestApp
  let pToken: string
  const types = ['single', 'multiple', 'blank', 'date'] as const
  const classes = ['血常规', '肝功能', 'Lab', 'lab', '', '人口学']
  const categories = ['all', 'object', 'followUp', 'interview', 'other', 'sample'] as const
  const columns: Record<IndicatorSortKey, 'code' | 'name_zh' | 'name_en' | 'type' | 'index_class' | 'updated_at'> = {
    code: 'code',
    nameZh: 'name_zh',
    nameEn: 'name_en',
    type: 'type',
    indexClass: 'index_class',
    updatedAt: 'updated_at',
  }

  beforeAll(async () => {
    p = await testApp()
    await p.createUser('pager', 'Pager123')
    pToken = await p.signIn('pager', 'Pager123')
    // Many equal sort values (4 types, 6 classes, 10 timestamps, repeated names) so that the
    // id tie-breaker is what keeps pages apart; names mix Chinese, cases, digits and an emoji.
    const names = ['血压', '血压', '心率', 'Alpha', 'alpha', 'Ω', '😀x', '10', '9', '']
    await p.db.kysely.transaction().execute(async (trx) => {
      for (let i = 0; i < 250; i++) {
        const type = types[i % 4]!
        await trx
          .insertInto('indicator')
          .values({
            code: `K${String((i * 7919) % 1000).padStart(3, '0')}_${i}`,
            name_zh: `${names[i % 9]}${i % 3 === 0 ? '' : i % 5}`,
            name_en: names[(i * 3) % 10]!,
            comment: '',
            type,
            display: type === 'single' ? 'radio' : type === 'multiple' ? 'checkbox' : 'input',
            data_type: 'text',
            options: type === 'single' || type === 'multiple' ? JSON.stringify(choices('a', 'b')) : '[]',
            unit: '',
            date_format: type === 'date' ? 'YYYY-MM-DD' : null,
            status: i % 7 === 0 ? 0 : 1,
            index_class: classes[i % 6]!,
            category: categories[(i * 5) % 6]!,
            created_at: '2026-01-01T00:00:00.000Z',
            updated_at: `2026-01-01T00:00:0${i % 10}.000Z`,
          })
          .execute()
      }
    })
  })
  afterAll(() => p.close())

  const page = async (query: Record<string, string>) => {
    const res = await p.app.inject({ method: 'GET', url: '/api/dictionary/indicators', query, headers: { 'kr-d-token': pToken } })
    if (res.statusCode !== 200) throw new Error(`${res.statusCode} ${res.body}`)
    return (res.json() as { data: IndicatorPage }).data
  }
  async function walk(query: Record<string, string>) {
    const ids: number[] = []
    const totals = new Set<number>()
    let after: string | null = null
    let pages = 0
    do {
      const got: IndicatorPage = await page({ ...query, limit: '50', ...(after ? { after } : {}) })
      ids.push(...got.rows.map((r) => r.id))
      totals.add(got.total)
      after = got.next
      expect(got.rows.length).toBeLessThanOrEqual(50)
      if (after) expect(got.rows.length).toBe(50)
    } while (after && ++pages < 100)
    return { ids, totals }
  }

  for (const sort of indicatorSortKeys) {
    for (const order of ['asc', 'desc'] as const) {
      it(`sort ${sort} ${order}: every row once, in the order of a plain ORDER BY`, async () => {
        const col = columns[sort]
        const expected = (await p.db.kysely.selectFrom('indicator').select('id').orderBy(col, order).orderBy('id', order).execute()).map(
          (r) => r.id,
        )
        expect(expected).toHaveLength(250)
        const { ids, totals } = await walk({ sort, order })
        expect(ids).toEqual(expected)
        expect([...totals]).toEqual([250])
      })
    }
  }

  it('with filters too: category and q, both orders', async () => {
    for (const order of ['asc', 'desc'] as const) {
      const expected = (
        await p.db.kysely
          .selectFrom('indicator')
          .select('id')
          .where('category', '=', 'object')
          .where('status', '=', 1)
          .orderBy('name_zh', order)
          .orderBy('id', order)
          .execute()
      ).map((r) => r.id)
      const { ids, totals } = await walk({ sort: 'nameZh', order, category: 'object', status: '1' })
      expect(ids).toEqual(expected)
      expect([...totals]).toEqual([expected.length])

      const withQ = (
        await p.db.kysely
          .selectFrom('indicator')
          .select(['id', 'code', 'name_zh', 'name_en', 'type'])
          .orderBy('type', order)
          .orderBy('id', order)
          .execute()
      )
        .filter((r) => [r.code, r.name_zh, r.name_en].some((v) => v.startsWith('血')))
        .map((r) => r.id)
      expect(withQ.length).toBeGreaterThan(50)
      expect((await walk({ sort: 'type', order, q: '血' })).ids).toEqual(withQ)

      // 'Alpha' and 'alpha' are both found by 'ALP', across pages and in the total.
      const withAlp = (
        await p.db.kysely
          .selectFrom('indicator')
          .select(['id', 'code', 'name_zh', 'name_en'])
          .orderBy('name_en', order)
          .orderBy('id', order)
          .execute()
      )
        .filter((r) => [r.code, r.name_zh, r.name_en].some((v) => v.toLowerCase().startsWith('alp')))
        .map((r) => r.id)
      expect(withAlp.length).toBeGreaterThan(50)
      const alp = await walk({ sort: 'nameEn', order, q: 'ALP' })
      expect(alp.ids).toEqual(withAlp)
      expect([...alp.totals]).toEqual([withAlp.length])
    }
  })

  it('the last page answers next = null; an exact multiple of the limit ends without an empty page', async () => {
    const all = await page({ limit: '250' })
    expect(all.rows).toHaveLength(250)
    expect(all.next).toBeNull()
    const first = await page({ limit: '249' })
    expect(first.next).not.toBeNull()
    const rest = await page({ limit: '249', after: first.next! })
    expect(rest.rows).toHaveLength(1)
    expect(rest.next).toBeNull()
  })
})
