import type { LightMyRequestResponse } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { templatePaths, type Layout, type Template, type TemplateVersion, type VersionInfo } from '../../contract/crf.ts'
import { indicatorInput } from '../../contract/dictionary.ts'
import { insertIndicator } from '../../server/db/repositories/indicators.ts'
import type { AuditRow } from '../../server/db/tables/auditLog.ts'
import { testApp, type TestApp } from '../support/testApp.ts'

// One server and database for the file, as in production; every test makes its own templates
// (unique names) and reads only the rows its own calls wrote.
let t: TestApp
let token: string
let userId: number
beforeAll(async () => {
  t = await testApp()
  userId = await t.createUser('designer', 'Design2024')
  token = await t.signIn('designer', 'Design2024')
})
afterAll(() => t.close())

interface Reply<T> {
  status: number
  code: number
  msg: string
  data: T
  boolResult?: boolean
}
type Method = 'GET' | 'POST' | 'PUT' | 'DELETE'
interface CallOptions {
  payload?: object
  query?: Record<string, string>
  lang?: string
  noToken?: boolean
}

async function call<T = unknown>(method: Method, path: string, o: CallOptions = {}): Promise<Reply<T>> {
  const headers: Record<string, string> = {}
  if (!o.noToken) headers['kr-d-token'] = token
  if (o.lang) headers['accept-language'] = o.lang
  const res: LightMyRequestResponse = await t.app.inject({ method, url: `/${path}`, headers, payload: o.payload, query: o.query })
  const b = res.json() as { code: number; msg: string; data: T; boolResult?: boolean }
  return { status: res.statusCode, ...b }
}

/** Succeeds or fails the test with the server's answer. */
async function ok<T>(method: Method, path: string, o: CallOptions = {}): Promise<T> {
  const r = await call<T>(method, path, o)
  if (r.status !== 200 || r.code !== 0) throw new Error(`${method} ${path}: ${r.status} ${r.code} ${r.msg}`)
  return r.data
}

let serial = 0
const uniqueName = (base: string) => `${base} ${++serial}`

const create = (kind: 'crf' | 'group', extra: Record<string, unknown> = {}) =>
  ok<Template>('POST', templatePaths.list, { payload: { kind, name: uniqueName(kind === 'crf' ? 'CRF' : 'Group'), ...extra } })
const update = (tpl: Template, changes: Record<string, unknown>) =>
  call<Template>('PUT', templatePaths.one(tpl.id), {
    payload: {
      name: tpl.name,
      description: tpl.description,
      collectType: tpl.collectType,
      preposeIds: tpl.preposeIds,
      status: tpl.status,
      ...changes,
    },
  })
const putLayout = (id: number, layout: unknown, lang?: string) =>
  call<TemplateVersion>('PUT', templatePaths.layout(id), { payload: layout as object, lang })
const check = (kind: 'crf' | 'group', id: number | string) =>
  call<{ generated: boolean; pending: boolean; version: number | null }>(
    'GET',
    kind === 'crf' ? templatePaths.checkCrf : templatePaths.checkGroup,
    {
      query: { id: String(id) },
    },
  )
const publish = (kind: 'crf' | 'group', id: number | string, lang?: string) =>
  call<{ generated: boolean; pending: boolean; version: number | null }>(
    'POST',
    kind === 'crf' ? templatePaths.publishCrf : templatePaths.publishGroup,
    {
      query: { id: String(id) },
      lang,
    },
  )

let codeSerial = 0
async function newIndicator(extra: Record<string, unknown> = {}): Promise<{ id: number; code: string }> {
  const code = `tpl_ind_${++codeSerial}`
  const input = indicatorInput.parse({
    code,
    nameZh: `指标${codeSerial}`,
    nameEn: `Indicator ${codeSerial}`,
    type: 'blank',
    display: 'input',
    ...extra,
  })
  return { id: await insertIndicator(t.db.kysely, input, new Date().toISOString()), code }
}

const oneSection = (...ids: number[]): Layout => ({
  sections: [{ key: 'main', title: 'Main', repeating: false, items: ids.map((indicatorId) => ({ indicatorId, required: false })) }],
})

const db = () => t.db.kysely
const auditRows = () => db().selectFrom('audit_log').selectAll().orderBy('id').execute()
/** Runs `act` and answers the audit rows it appended. */
async function appended(act: () => Promise<unknown>): Promise<AuditRow[]> {
  const before = (await auditRows()).length
  await act()
  return (await auditRows()).slice(before)
}
const detail = (row: AuditRow | undefined) => JSON.parse(row?.detail ?? 'null') as Record<string, unknown>

/** Everything stored about templates, to prove a refusal wrote nothing. */
async function snapshot() {
  return {
    template: await db().selectFrom('template').selectAll().orderBy('id').execute(),
    prepose: await db().selectFrom('template_prepose').selectAll().orderBy('template_id').orderBy('prepose_id').execute(),
    version: await db().selectFrom('template_version').selectAll().orderBy('id').execute(),
    item: await db().selectFrom('template_item').selectAll().orderBy('version_id').orderBy('section_key').orderBy('position').execute(),
    audit: (await auditRows()).length,
  }
}
async function expectNothingWritten(act: () => Promise<unknown>) {
  const before = await snapshot()
  await act()
  expect(await snapshot()).toEqual(before)
}

describe('a session is required', () => {
  it('every template route answers 401 (code 50008) without a token, and writes nothing', async () => {
    const tpl = await create('crf')
    const routes: [Method, string, object?][] = [
      ['GET', templatePaths.list],
      ['POST', templatePaths.list, { name: 'No session' }],
      ['GET', templatePaths.one(tpl.id)],
      ['PUT', templatePaths.one(tpl.id), { name: 'No session' }],
      ['DELETE', templatePaths.one(tpl.id)],
      ['GET', templatePaths.layout(tpl.id)],
      ['PUT', templatePaths.layout(tpl.id), { sections: [] }],
      ['GET', templatePaths.versions(tpl.id)],
      ['GET', templatePaths.version(tpl.id, 1)],
      ['GET', `${templatePaths.checkCrf}?id=${tpl.id}`],
      ['POST', `${templatePaths.publishCrf}?id=${tpl.id}`],
      ['GET', `${templatePaths.checkGroup}?id=${tpl.id}`],
      ['POST', `${templatePaths.publishGroup}?id=${tpl.id}`],
    ]
    await expectNothingWritten(async () => {
      for (const [method, path, payload] of routes) {
        const r = await call(method, path, { noToken: true, payload })
        expect([method, path, r.status, r.code]).toEqual([method, path, 401, 50008])
        expect(r.msg).toBe('未登录或登录已失效，请重新登录')
      }
    })
  })

  it('the token may also travel as ?token=, as SPEC §7 sends it', async () => {
    const tpl = await create('crf')
    const list = await call<Template[]>('GET', templatePaths.list, { noToken: true, query: { token, q: tpl.name } })
    expect(list.status).toBe(200)
    expect(list.data.map((x) => x.id)).toEqual([tpl.id])
    const state = await call('GET', templatePaths.checkCrf, { noToken: true, query: { token, id: String(tpl.id) } })
    expect(state.status).toBe(200)
  })
})

describe('create, read, list, update', () => {
  it('a new CRF has the defaults, an empty draft version 1, and an audit row', async () => {
    const name = uniqueName('Baseline visit')
    let tpl: Template | undefined
    const rows = await appended(async () => {
      tpl = await ok<Template>('POST', templatePaths.list, { payload: { name, description: 'First visit' } })
    })
    expect(tpl).toMatchObject({
      kind: 'crf',
      name,
      description: 'First visit',
      collectType: 'all',
      preposeIds: [],
      status: 1,
      indexCount: 0,
      draft: { version: 1, state: 'draft', publishedAt: null },
      published: null,
    })
    const versions = await db().selectFrom('template_version').selectAll().where('template_id', '=', tpl!.id).execute()
    expect(versions).toEqual([expect.objectContaining({ version: 1, state: 'draft', sections: '[]', published_at: null })])
    expect(rows).toHaveLength(1)
    expect(rows[0]).toMatchObject({ user_id: userId, username: 'designer', action: 'template.create', outcome: 'ok' })
    expect(detail(rows[0])).toEqual({ id: tpl!.id, kind: 'crf', name, version: 1 })
    expect(await ok<Template>('GET', templatePaths.one(tpl!.id))).toEqual(tpl)
  })

  it('a question group is created with kind group', async () => {
    const g = await create('group', { collectType: 'followUp', description: 'Quality of life' })
    expect(g).toMatchObject({ kind: 'group', collectType: 'followUp', description: 'Quality of life', preposeIds: [] })
    expect((await auditRows()).at(-1)).toMatchObject({ action: 'template.create' })
  })

  it('lists one kind, sorted by name, filtered by part of the name (any case, literally) and by collect type', async () => {
    const c = await ok<Template>('POST', templatePaths.list, { payload: { name: 'Listing Charlie', collectType: 'interview' } })
    const a = await ok<Template>('POST', templatePaths.list, { payload: { name: 'Listing Alpha' } })
    const b = await ok<Template>('POST', templatePaths.list, { payload: { name: 'Listing Bravo 100%', collectType: 'interview' } })
    const g = await ok<Template>('POST', templatePaths.list, { payload: { kind: 'group', name: 'Listing Group' } })
    const ids = async (query: Record<string, string>) => (await ok<Template[]>('GET', templatePaths.list, { query })).map((x) => x.id)

    expect(await ids({ q: 'listing' })).toEqual([a.id, b.id, c.id])
    expect(await ids({ q: 'LISTING', kind: 'crf' })).toEqual([a.id, b.id, c.id])
    expect(await ids({ q: 'listing', kind: 'group' })).toEqual([g.id])
    expect(await ids({ q: 'listing', collectType: 'interview' })).toEqual([b.id, c.id])
    expect(await ids({ q: '100%' })).toEqual([b.id])
    // % and _ are matched as themselves, not as wildcards.
    expect(await ids({ q: 'Listing%Alpha' })).toEqual([])
    expect(await ids({ q: 'Listing_Alpha' })).toEqual([])
    const all = await ok<Template[]>('GET', templatePaths.list)
    expect(all.every((x) => x.kind === 'crf')).toBe(true)
    const names = all.map((x) => x.name)
    expect(names.indexOf('Listing Alpha')).toBeLessThan(names.indexOf('Listing Bravo 100%'))

    const bad = await call('GET', templatePaths.list, { query: { kind: 'form' } })
    expect(bad.status).toBe(400)
  })

  it('refuses bad input naming the field, and writes nothing', async () => {
    await expectNothingWritten(async () => {
      const noName = await call('POST', templatePaths.list, { payload: { description: 'x' } })
      expect([noName.status, noName.msg]).toEqual([400, '请输入 name'])
      const blank = await call('POST', templatePaths.list, { payload: { name: '   ' }, lang: 'en' })
      expect([blank.status, blank.msg]).toEqual([400, 'Please input name'])
      const type = await call('POST', templatePaths.list, { payload: { name: 'x', collectType: 'weekly' } })
      expect(type.status).toBe(400)
      expect(type.msg).toContain('collectType')
      const status = await call('POST', templatePaths.list, { payload: { name: 'x', status: 2 } })
      expect(status.status).toBe(400)
    })
  })

  it('a second template of one kind with the same name is refused; the other kind may use it', async () => {
    const crf = await create('crf')
    await expectNothingWritten(async () => {
      const dup = await call('POST', templatePaths.list, { payload: { name: crf.name } })
      expect([dup.status, dup.code, dup.msg]).toEqual([409, 409, `${crf.name}已存在`])
      const en = await call('POST', templatePaths.list, { payload: { name: ` ${crf.name} ` }, lang: 'en' })
      expect([en.status, en.msg]).toEqual([409, `${crf.name} already exists`])
    })
    const group = await ok<Template>('POST', templatePaths.list, { payload: { kind: 'group', name: crf.name } })
    expect(group.kind).toBe('group')
    const other = await create('crf')
    const renamed = await update(other, { name: crf.name })
    expect([renamed.status, renamed.msg]).toEqual([409, `${crf.name}已存在`])
    // Renaming to its own name is no clash.
    expect((await update(crf, { description: 'same name' })).status).toBe(200)
  })

  it('unknown or impossible ids: 404 with the id, in zh and en; a malformed id: 400', async () => {
    const missing = await call('GET', templatePaths.one(999999))
    expect([missing.status, missing.code, missing.msg]).toEqual([404, 404, '表单不存在：999999'])
    const en = await call('GET', templatePaths.one(999999), { lang: 'en-US,en;q=0.9' })
    expect(en.msg).toBe('No such form: 999999')
    // Beyond the database's integer range: bad input naming the id, never a database error.
    const huge = await call('GET', 'api/templates/99999999999')
    expect([huge.status, huge.msg]).toEqual([400, 'id 不能大于 2147483647'])
    for (const path of ['api/templates/abc', 'api/templates/0', 'api/templates/-3', 'api/templates/1.5']) {
      expect((await call('GET', path)).status).toBe(400)
    }
    for (const [method, path] of [
      ['PUT', templatePaths.one(999999)],
      ['DELETE', templatePaths.one(999999)],
      ['GET', templatePaths.layout(999999)],
      ['PUT', templatePaths.layout(999999)],
      ['GET', templatePaths.versions(999999)],
      ['GET', templatePaths.version(999999, 1)],
    ] as const) {
      const payload = method === 'PUT' ? (path.endsWith('layout') ? { sections: [] } : { name: 'x' }) : undefined
      const r = await call(method, path, { payload })
      expect([method, path, r.status, r.msg]).toEqual([method, path, 404, '表单不存在：999999'])
    }
  })

  it('an update replaces the editable fields, keeps the kind, and audits what changed', async () => {
    const tpl = await create('crf')
    const name = uniqueName('Renamed')
    let r: Reply<Template> | undefined
    const rows = await appended(async () => {
      r = await update(tpl, { name, description: 'Changed', collectType: 'biomaterial', status: 0, kind: 'group' })
    })
    expect(r?.status).toBe(200)
    expect(r?.data).toMatchObject({ id: tpl.id, kind: 'crf', name, description: 'Changed', collectType: 'biomaterial', status: 0 })
    expect(await ok<Template>('GET', templatePaths.one(tpl.id))).toMatchObject({ name, status: 0, kind: 'crf' })
    expect(rows).toHaveLength(1)
    expect(rows[0]).toMatchObject({ action: 'template.update', outcome: 'ok', username: 'designer' })
    expect(detail(rows[0])).toEqual({ id: tpl.id, kind: 'crf', changed: ['name', 'description', 'collectType', 'status'] })
  })
})

describe('prepose CRFs', () => {
  it('are stored (without duplicates) and listed', async () => {
    const a = await create('crf')
    const b = await create('crf')
    const c = await create('crf', { preposeIds: [b.id, a.id, b.id] })
    expect([...c.preposeIds].sort((x, y) => x - y)).toEqual([a.id, b.id])
    const listed = await ok<Template[]>('GET', templatePaths.list, { query: { q: c.name } })
    expect(listed[0]?.preposeIds.sort((x, y) => x - y)).toEqual([a.id, b.id])
  })

  it('must be existing CRFs: an unknown id or a question group is refused, nothing written', async () => {
    const a = await create('crf')
    const g = await create('group')
    await expectNothingWritten(async () => {
      const unknown = await call('POST', templatePaths.list, { payload: { name: uniqueName('Pre'), preposeIds: [999999] } })
      expect([unknown.status, unknown.msg]).toEqual([400, '前置CRF不存在：999999'])
      const huge = await call('POST', templatePaths.list, { payload: { name: uniqueName('Pre'), preposeIds: [99999999999] } })
      expect([huge.status, huge.msg]).toEqual([400, 'preposeIds.0 不能大于 2147483647'])
      const group = await update(a, { preposeIds: [g.id] })
      expect([group.status, group.msg]).toEqual([400, `前置CRF不存在：${g.id}`])
      const en = await call('PUT', templatePaths.one(a.id), { payload: { name: a.name, preposeIds: [g.id] }, lang: 'en' })
      expect(en.msg).toBe(`No such prepose CRF: ${g.id}`)
    })
  })

  it('a question group has none', async () => {
    const a = await create('crf')
    const g = await create('group')
    await expectNothingWritten(async () => {
      const onCreate = await call('POST', templatePaths.list, { payload: { kind: 'group', name: uniqueName('G'), preposeIds: [a.id] } })
      expect([onCreate.status, onCreate.msg]).toEqual([400, '题组不能设置前置CRF'])
      const onUpdate = await update(g, { preposeIds: [a.id] })
      expect([onUpdate.status, onUpdate.msg]).toEqual([400, '题组不能设置前置CRF'])
    })
  })

  it('a CRF cannot be its own prepose', async () => {
    const a = await create('crf')
    await expectNothingWritten(async () => {
      const self = await update(a, { preposeIds: [a.id] })
      expect([self.status, self.code, self.msg]).toEqual([409, 409, '前置CRF形成循环，保存失败'])
    })
  })

  it('a cycle through the whole graph is refused: A→B, B→C, then C→A', async () => {
    const c = await create('crf')
    const b = await create('crf', { preposeIds: [c.id] })
    const a = await create('crf', { preposeIds: [b.id] })
    await expectNothingWritten(async () => {
      const cycle = await update(c, { preposeIds: [a.id] })
      expect([cycle.status, cycle.code, cycle.msg]).toEqual([409, 409, '前置CRF形成循环，保存失败'])
      const en = await call('PUT', templatePaths.one(c.id), { payload: { name: c.name, preposeIds: [a.id] }, lang: 'en' })
      expect([en.status, en.msg]).toEqual([409, 'The prepose CRFs form a cycle, not saved'])
      // Two steps back is a cycle too.
      const two = await update(b, { preposeIds: [c.id, a.id] })
      expect(two.status).toBe(409)
    })
    expect((await ok<Template>('GET', templatePaths.one(c.id))).preposeIds).toEqual([])
    // Replacing C's own edges does not count against it, and a diamond is no cycle.
    const d = await create('crf', { preposeIds: [c.id] })
    const diamond = await update(a, { preposeIds: [b.id, d.id] })
    expect(diamond.status).toBe(200)
    // Once A no longer leads to C, C may come after A.
    expect((await update(b, { preposeIds: [] })).status).toBe(200)
    expect((await update(d, { preposeIds: [] })).status).toBe(200)
    expect((await update(c, { preposeIds: [a.id] })).data.preposeIds).toEqual([a.id])
  })

  it('deleting a prepose CRF removes it from the CRFs that named it', async () => {
    const pre = await create('crf')
    const after = await create('crf', { preposeIds: [pre.id] })
    const rows = await appended(() => ok('DELETE', templatePaths.one(pre.id)))
    expect((await ok<Template>('GET', templatePaths.one(after.id))).preposeIds).toEqual([])
    expect(detail(rows[0])).toMatchObject({ id: pre.id, preposeOf: [after.id] })
  })
})

describe('layout', () => {
  it('a new template shows its empty draft version 1', async () => {
    const tpl = await create('crf')
    const v = await ok<TemplateVersion>('GET', templatePaths.layout(tpl.id))
    expect(v).toMatchObject({ templateId: tpl.id, version: 1, state: 'draft', publishedAt: null, layout: { sections: [] }, indicators: [] })
  })

  it('sections with items and a sub form are written into the draft, with the indicators in layout order', async () => {
    const tpl = await create('crf')
    const [x, y, z] = [await newIndicator({ unit: 'kg' }), await newIndicator(), await newIndicator()]
    const layout: Layout = {
      sections: [
        {
          key: 'vitals',
          title: 'Vital signs',
          repeating: false,
          items: [
            { indicatorId: y.id, required: true },
            { indicatorId: x.id, required: false },
          ],
        },
        { key: 'drugs', title: 'Concomitant drugs', repeating: true, items: [{ indicatorId: z.id, required: false }] },
      ],
    }
    let r: Reply<TemplateVersion> | undefined
    const rows = await appended(async () => {
      r = await putLayout(tpl.id, layout)
    })
    expect(r?.status).toBe(200)
    expect(r?.data).toMatchObject({ version: 1, state: 'draft', layout })
    expect(r?.data.indicators.map((i) => i.code)).toEqual([y.code, x.code, z.code])
    expect(r?.data.indicators[1]).toMatchObject({ unit: 'kg', inUse: false })
    expect(await ok<TemplateVersion>('GET', templatePaths.layout(tpl.id))).toEqual(r?.data)
    expect((await ok<Template>('GET', templatePaths.one(tpl.id))).indexCount).toBe(3)
    expect(rows).toHaveLength(1)
    expect(rows[0]).toMatchObject({ action: 'template.layout', outcome: 'ok' })
    expect(detail(rows[0])).toEqual({ id: tpl.id, kind: 'crf', version: 1, created: false, items: 3 })

    // Moving an indicator up is a new order sent by the client; the draft is rewritten, no new version.
    const moved: Layout = {
      sections: [{ ...layout.sections[0]!, items: [layout.sections[0]!.items[1]!, layout.sections[0]!.items[0]!] }, layout.sections[1]!],
    }
    const again = await putLayout(tpl.id, moved)
    expect(again.data.layout).toEqual(moved)
    expect(again.data.version).toBe(1)
    expect((await ok<VersionInfo[]>('GET', templatePaths.versions(tpl.id))).map((v) => v.version)).toEqual([1])
    const stored = await db()
      .selectFrom('template_item')
      .select(['section_key', 'position', 'indicator_id', 'required'])
      .where('version_id', '=', again.data.id)
      .orderBy('section_key')
      .orderBy('position')
      .execute()
    expect(stored).toEqual([
      { section_key: 'drugs', position: 0, indicator_id: z.id, required: 0 },
      { section_key: 'vitals', position: 0, indicator_id: x.id, required: 0 },
      { section_key: 'vitals', position: 1, indicator_id: y.id, required: 1 },
    ])
  })

  it('refuses unknown indicators, an indicator placed twice, repeated or malformed section keys; nothing written', async () => {
    const tpl = await create('crf')
    const [x, y] = [await newIndicator(), await newIndicator()]
    await ok('PUT', templatePaths.layout(tpl.id), { payload: oneSection(x.id) })
    await expectNothingWritten(async () => {
      const unknown = await putLayout(tpl.id, oneSection(y.id, 999999))
      expect([unknown.status, unknown.msg]).toEqual([400, '指标不存在：999999'])
      const huge = await putLayout(tpl.id, oneSection(99999999999))
      expect([huge.status, huge.msg]).toEqual([400, 'sections.0.items.0.indicatorId 不能大于 2147483647'])
      const twiceInSection = await putLayout(tpl.id, oneSection(y.id, y.id))
      expect([twiceInSection.status, twiceInSection.msg]).toEqual([400, `指标${y.code}在表单中重复`])
      const acrossSections = await putLayout(
        tpl.id,
        {
          sections: [
            { key: 'a', items: [{ indicatorId: x.id }] },
            { key: 'b', repeating: true, items: [{ indicatorId: x.id }] },
          ],
        },
        'en',
      )
      expect([acrossSections.status, acrossSections.msg]).toEqual([400, `The indicator ${x.code} appears twice in the form`])
      const sameKey = await putLayout(tpl.id, {
        sections: [
          { key: 'a', items: [] },
          { key: 'a', items: [{ indicatorId: y.id }] },
        ],
      })
      expect([sameKey.status, sameKey.msg]).toEqual([400, '分节a重复'])
      const badKey = await putLayout(tpl.id, { sections: [{ key: 'has space', items: [] }] })
      expect(badKey.status).toBe(400)
      expect(badKey.msg).toContain('sections.0.key')
      const noItems = await putLayout(tpl.id, { sections: [{ key: 'a' }] })
      expect(noItems.status).toBe(400)
    })
    expect((await ok<TemplateVersion>('GET', templatePaths.layout(tpl.id))).layout).toEqual(oneSection(x.id))
  })

  it('the same indicator may sit in two different templates', async () => {
    const x = await newIndicator()
    const [a, b] = [await create('crf'), await create('group')]
    expect((await putLayout(a.id, oneSection(x.id))).status).toBe(200)
    expect((await putLayout(b.id, oneSection(x.id))).status).toBe(200)
  })
})

describe('versions and publishing (SPEC §7 generate-to-DB calls)', () => {
  it('a never-published empty form says it has no indicators, not that nothing changed', async () => {
    const tpl = await create('crf')
    expect((await check('crf', tpl.id)).data).toEqual({ generated: false, pending: false, version: null })
    await expectNothingWritten(async () => {
      const r = await publish('crf', tpl.id)
      expect([r.status, r.code, r.msg]).toEqual([409, 409, '表单还没有任何指标，不能发布'])
      const en = await publish('crf', tpl.id, 'en')
      expect(en.msg).toBe('The form has no indicators yet, so it cannot be published')
    })
  })

  it('publishing freezes the version; later edits make version n+1 and the old one stays readable', async () => {
    const tpl = await create('crf')
    const [x, y, z] = [await newIndicator(), await newIndicator(), await newIndicator()]
    await ok('PUT', templatePaths.layout(tpl.id), { payload: oneSection(x.id, y.id) })
    expect((await check('crf', tpl.id)).data).toEqual({ generated: false, pending: true, version: null })

    let pub: Reply<{ generated: boolean; pending: boolean; version: number | null }> | undefined
    const rows = await appended(async () => {
      pub = await publish('crf', tpl.id)
    })
    expect(pub).toMatchObject({
      status: 200,
      code: 0,
      boolResult: true,
      msg: '发布成功，当前版本为1',
      data: { generated: true, pending: false, version: 1 },
    })
    expect(rows).toHaveLength(1)
    expect(rows[0]).toMatchObject({ action: 'template.publish', outcome: 'ok', user_id: userId })
    expect(detail(rows[0])).toEqual({ id: tpl.id, kind: 'crf', version: 1, fields: 2 })
    const v1Row = await db()
      .selectFrom('template_version')
      .selectAll()
      .where('template_id', '=', tpl.id)
      .where('version', '=', 1)
      .executeTakeFirstOrThrow()
    expect(v1Row.state).toBe('published')
    expect(v1Row.published_at).not.toBeNull()
    const v1Items = await db().selectFrom('template_item').selectAll().where('version_id', '=', v1Row.id).orderBy('position').execute()

    expect((await check('crf', tpl.id)).data).toEqual({ generated: true, pending: false, version: 1 })
    const again = await publish('crf', tpl.id, 'en')
    expect([again.status, again.msg]).toEqual([409, 'There are no changes to publish'])
    const afterPublish = await ok<Template>('GET', templatePaths.one(tpl.id))
    expect(afterPublish).toMatchObject({
      draft: null,
      published: { version: 1, state: 'published', publishedAt: v1Row.published_at },
      indexCount: 2,
    })
    const v1View = await ok<TemplateVersion>('GET', templatePaths.version(tpl.id, 1))
    expect(v1View).toMatchObject({ version: 1, state: 'published', layout: oneSection(x.id, y.id) })
    expect(v1View.indicators.every((i) => i.inUse)).toBe(true)
    expect(await ok<TemplateVersion>('GET', templatePaths.layout(tpl.id))).toEqual(v1View)

    // Saving the published layout unchanged starts no version.
    const same = await putLayout(tpl.id, oneSection(x.id, y.id))
    expect(same.data).toMatchObject({ version: 1, state: 'published' })
    expect((await ok<VersionInfo[]>('GET', templatePaths.versions(tpl.id))).map((v) => v.version)).toEqual([1])

    // A change after publishing creates draft version 2 from the given layout only.
    const changed = await appended(async () => {
      const v2 = await putLayout(tpl.id, oneSection(z.id, x.id))
      expect(v2.data).toMatchObject({ version: 2, state: 'draft', publishedAt: null, layout: oneSection(z.id, x.id) })
    })
    expect(detail(changed[0])).toEqual({ id: tpl.id, kind: 'crf', version: 2, created: true, items: 2 })
    expect((await check('crf', tpl.id)).data).toEqual({ generated: true, pending: true, version: 1 })
    expect(await ok<TemplateVersion>('GET', templatePaths.version(tpl.id, 1))).toEqual(v1View)
    expect(await db().selectFrom('template_item').selectAll().where('version_id', '=', v1Row.id).orderBy('position').execute()).toEqual(
      v1Items,
    )
    expect(await ok<Template>('GET', templatePaths.one(tpl.id))).toMatchObject({
      draft: { version: 2, state: 'draft' },
      published: { version: 1 },
      indexCount: 2,
    })

    // Further edits go into the same draft.
    await ok('PUT', templatePaths.layout(tpl.id), { payload: oneSection(z.id) })
    const versions = await ok<VersionInfo[]>('GET', templatePaths.versions(tpl.id))
    expect(versions.map((v) => [v.version, v.state])).toEqual([
      [1, 'published'],
      [2, 'draft'],
    ])
    expect((await ok<Template>('GET', templatePaths.one(tpl.id))).indexCount).toBe(1)

    expect((await publish('crf', tpl.id)).data).toEqual({ generated: true, pending: false, version: 2 })
    expect(await ok<TemplateVersion>('GET', templatePaths.version(tpl.id, 1))).toEqual(v1View)
    expect((await ok<TemplateVersion>('GET', templatePaths.version(tpl.id, 2))).layout).toEqual(oneSection(z.id))
    expect((await check('crf', tpl.id)).data).toEqual({ generated: true, pending: false, version: 2 })

    // And the next change is version 3.
    expect((await putLayout(tpl.id, oneSection(x.id))).data.version).toBe(3)

    const missing = await call('GET', templatePaths.version(tpl.id, 9))
    expect([missing.status, missing.msg]).toEqual([404, '表单版本不存在：9'])
    const hugeVersion = await call('GET', templatePaths.version(tpl.id, 99999999999))
    expect([hugeVersion.status, hugeVersion.msg]).toEqual([400, 'version 不能大于 2147483647'])
  })

  it('question groups publish through saveFieldsGenerateToDb', async () => {
    const g = await create('group')
    const x = await newIndicator()
    await ok('PUT', templatePaths.layout(g.id), { payload: oneSection(x.id) })
    expect((await check('group', g.id)).data).toEqual({ generated: false, pending: true, version: null })
    const rows = await appended(async () => {
      expect((await publish('group', g.id, 'en')).msg).toBe('Published as version 1')
    })
    expect(detail(rows[0])).toEqual({ id: g.id, kind: 'group', version: 1, fields: 1 })
    expect((await check('group', g.id)).data).toEqual({ generated: true, pending: false, version: 1 })
  })

  it('the calls of one kind refuse the other kind and unknown ids, and publish nothing', async () => {
    const crf = await create('crf')
    const g = await create('group')
    const x = await newIndicator()
    await ok('PUT', templatePaths.layout(crf.id), { payload: oneSection(x.id) })
    await ok('PUT', templatePaths.layout(g.id), { payload: oneSection(x.id) })
    await expectNothingWritten(async () => {
      const groupAsCrf = await publish('crf', g.id)
      expect([groupAsCrf.status, groupAsCrf.msg]).toEqual([400, `表单${g.id}是题组，不是CRF`])
      const crfAsGroup = await publish('group', crf.id, 'en')
      expect([crfAsGroup.status, crfAsGroup.msg]).toEqual([400, `The form ${crf.id} is a CRF, not a question group`])
      expect((await check('crf', g.id)).status).toBe(400)
      expect((await check('group', crf.id)).status).toBe(400)
      for (const kind of ['crf', 'group'] as const) {
        const unknownPublish = await publish(kind, 999999)
        expect([unknownPublish.status, unknownPublish.msg]).toEqual([404, '表单不存在：999999'])
        expect((await check(kind, 999999)).status).toBe(404)
        expect((await check(kind, 'abc')).status).toBe(400)
        const noId = await call('POST', kind === 'crf' ? templatePaths.publishCrf : templatePaths.publishGroup)
        expect([noId.status, noId.msg]).toEqual([400, '请输入 id'])
      }
    })
    expect((await check('crf', crf.id)).data.generated).toBe(false)
    expect((await check('group', g.id)).data.generated).toBe(false)
  })
})

describe('deletion (SPEC §8 blocking deletions)', () => {
  it('a CRF with indicators is refused with the SPEC message, in zh and en; nothing deleted', async () => {
    const tpl = await create('crf')
    await ok('PUT', templatePaths.layout(tpl.id), { payload: oneSection((await newIndicator()).id) })
    await expectNothingWritten(async () => {
      const zh = await call('DELETE', templatePaths.one(tpl.id))
      expect([zh.status, zh.code, zh.msg]).toEqual([409, 409, '当前CRF下存在指标，删除失败'])
      const en = await call('DELETE', templatePaths.one(tpl.id), { lang: 'en' })
      expect([en.status, en.msg]).toEqual([409, 'There are indicators under the current CRF, deletion failed'])
    })
  })

  it('a question group with indicators is refused with its SPEC message, in zh and en', async () => {
    const g = await create('group')
    await ok('PUT', templatePaths.layout(g.id), { payload: oneSection((await newIndicator()).id) })
    await expectNothingWritten(async () => {
      const zh = await call('DELETE', templatePaths.one(g.id))
      expect([zh.status, zh.msg]).toEqual([409, '当前题组下存在指标，删除失败'])
      const en = await call('DELETE', templatePaths.one(g.id), { lang: 'en;q=0.8,fr' })
      expect([en.status, en.msg]).toEqual([409, 'There are indicators under the current question group, deletion failed'])
    })
  })

  it('a published version blocks it, even when the draft is empty: prohibit delete, nothing deleted', async () => {
    const tpl = await create('crf')
    await ok('PUT', templatePaths.layout(tpl.id), { payload: oneSection((await newIndicator()).id) })
    await publish('crf', tpl.id)
    expect((await putLayout(tpl.id, { sections: [] })).data).toMatchObject({ version: 2, state: 'draft' })
    expect((await ok<Template>('GET', templatePaths.one(tpl.id))).indexCount).toBe(0)
    await expectNothingWritten(async () => {
      const r = await call('DELETE', templatePaths.one(tpl.id))
      expect([r.status, r.code, r.msg]).toEqual([409, 409, '禁止删除：表单已有发布的版本'])
      const en = await call('DELETE', templatePaths.one(tpl.id), { lang: 'en' })
      expect([en.status, en.msg]).toEqual([409, 'Prohibit delete: the form has a published version'])
    })
    expect((await ok<VersionInfo[]>('GET', templatePaths.versions(tpl.id))).length).toBe(2)
  })

  it('a template without indicators is deleted with all its versions, in one audited step', async () => {
    for (const kind of ['crf', 'group'] as const) {
      const tpl = await create(kind)
      await ok('PUT', templatePaths.layout(tpl.id), { payload: { sections: [{ key: 'empty', title: 'Nothing yet', items: [] }] } })
      let r: Reply<unknown> | undefined
      const rows = await appended(async () => {
        r = await call('DELETE', templatePaths.one(tpl.id))
      })
      expect([r?.status, r?.code, r?.boolResult]).toEqual([200, 0, true])
      expect(rows).toHaveLength(1)
      expect(rows[0]).toMatchObject({ action: 'template.delete', outcome: 'ok', username: 'designer' })
      expect(detail(rows[0])).toEqual({ id: tpl.id, kind, name: tpl.name, versions: 1, preposeOf: [] })
      expect(await db().selectFrom('template').selectAll().where('id', '=', tpl.id).execute()).toEqual([])
      expect(await db().selectFrom('template_version').selectAll().where('template_id', '=', tpl.id).execute()).toEqual([])
      expect((await call('GET', templatePaths.one(tpl.id))).status).toBe(404)
      expect((await call('DELETE', templatePaths.one(tpl.id))).status).toBe(404)
    }
  })
})

describe('concurrent writers (several servers may share one PostgreSQL)', () => {
  it('A gaining B while B gains A: one succeeds, the other is refused as a cycle', async () => {
    for (let round = 0; round < 5; round++) {
      const a = await create('crf')
      const b = await create('crf')
      const [ra, rb] = await Promise.all([update(a, { preposeIds: [b.id] }), update(b, { preposeIds: [a.id] })])
      expect([ra.status, rb.status].sort()).toEqual([200, 409])
      const edges = await db().selectFrom('template_prepose').selectAll().where('template_id', 'in', [a.id, b.id]).execute()
      expect(edges).toHaveLength(1)
    }
  })

  it('simultaneous publishes publish once; simultaneous edits after it share one new draft', async () => {
    const tpl = await create('crf')
    const [x, y] = [await newIndicator(), await newIndicator()]
    await ok('PUT', templatePaths.layout(tpl.id), { payload: oneSection(x.id) })
    const published = await Promise.all([1, 2, 3, 4].map(() => publish('crf', tpl.id)))
    expect(published.map((r) => r.status).sort()).toEqual([200, 409, 409, 409])
    const edits = await Promise.all([oneSection(y.id), oneSection(x.id, y.id), oneSection(y.id, x.id)].map((l) => putLayout(tpl.id, l)))
    expect(edits.map((r) => [r.status, r.data.version])).toEqual([
      [200, 2],
      [200, 2],
      [200, 2],
    ])
    const versions = await ok<VersionInfo[]>('GET', templatePaths.versions(tpl.id))
    expect(versions.map((v) => [v.version, v.state])).toEqual([
      [1, 'published'],
      [2, 'draft'],
    ])
  })
})
