import fs from 'node:fs'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ImportResult, ImportRowError } from '../../contract/dictionaryExchange.ts'
import { multipart } from '../support/multipart.ts'
import { testApp, type TestApp } from '../support/testApp.ts'

/**
 * Dictionary exchange as people use it (issue 7 item 8): export, edit, import again with a preview
 * of what is added, changed and left alone, then the real run, all or nothing; REDCap files with
 * long labels and section headers, and text that is valid UTF-8 whatever characters it holds.
 */

let t: TestApp
let token: string
beforeAll(async () => {
  t = await testApp()
  await t.createUser('editor', 'Editor2024')
  token = await t.signIn('editor', 'Editor2024')
})
afterAll(() => t.close())

type Answer = { code: number; msg: string; data: ImportResult & { errors: ImportRowError[]; total?: number } }

async function importFile(name: string, data: string | Buffer, query = '') {
  const { payload, contentType } = multipart(name, Buffer.isBuffer(data) ? data : Buffer.from(data))
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/dictionary/import${query}`,
    payload,
    headers: { 'content-type': contentType, 'kr-d-token': token, 'accept-language': 'en' },
  })
  return { status: res.statusCode, body: res.json() as Answer }
}
const row = (code: string) => t.db.kysely.selectFrom('indicator').selectAll().where('code', '=', code).executeTakeFirst()
const count = async () =>
  Number(
    (
      await t.db.kysely
        .selectFrom('indicator')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  )

const redcapHeader = fs
  .readFileSync(fileURLToPath(new URL('../fixtures/redcap-dictionary.csv', import.meta.url)), 'utf8')
  .split('\n')[0]!
  .trim()

describe('upsert: preview, then the real run', () => {
  beforeAll(async () => {
    const seed = [
      'code,nameZh,nameEn,type,display,options,unit',
      'u_a,甲,Alpha,blank,input,,kg',
      'u_b,乙,Beta,blank,input,,',
      'u_c,丙,Gamma,single,radio,"1, 是 | 2, 否",',
    ].join('\n')
    expect((await importFile('seed.csv', seed)).status).toBe(200)
  })

  // The file has only these columns: the others (nameEn, unit, options…) keep their stored values.
  const edited = ['code,nameZh,type', 'u_a,甲改,blank', 'u_b,乙,blank', 'u_new,新,blank'].join('\n')

  it('previews added, changed with the changed fields, and unchanged, and writes nothing', async () => {
    const before = await count()
    const { status, body } = await importFile('edited.csv', edited, '?mode=upsert&dryRun=true')
    expect(status, JSON.stringify(body)).toBe(200)
    expect(body.data).toMatchObject({ mode: 'upsert', dryRun: true, added: 1, changed: 1, unchanged: 1, errorsTotal: 0, errors: [] })
    expect(body.data.outcomes).toEqual([
      { row: 2, code: 'u_a', status: 'changed', fields: ['nameZh'] },
      { row: 3, code: 'u_b', status: 'unchanged', fields: [] },
      { row: 4, code: 'u_new', status: 'added', fields: [] },
    ])
    expect(body.msg).toBe('Preview — added: 1, changed: 1, unchanged: 1, errors: 0; nothing written yet')
    expect(await count()).toBe(before)
    expect(await row('u_a')).toMatchObject({ name_zh: '甲' })
    expect(await row('u_new')).toBeUndefined()
  })

  it('applies the same file: updates, adds, keeps the absent columns, and audits once', async () => {
    const updatedBefore = (await row('u_b'))!.updated_at
    const { status, body } = await importFile('edited.csv', edited, '?mode=upsert')
    expect(status, JSON.stringify(body)).toBe(200)
    expect(body.msg).toBe('Imported — added: 1, changed: 1, unchanged: 1, forms: 0')
    expect(await row('u_a')).toMatchObject({ name_zh: '甲改', name_en: 'Alpha', unit: 'kg' })
    expect(await row('u_new')).toMatchObject({ name_zh: '新', type: 'blank' })
    // An unchanged row is not written at all.
    expect((await row('u_b'))!.updated_at).toBe(updatedBefore)
    const audits = await t.db.kysely
      .selectFrom('audit_log')
      .select('detail')
      .where('action', '=', 'dictionary.import')
      .where('outcome', '=', 'ok')
      .execute()
    expect(
      audits.map((a) => JSON.parse(a.detail) as { mode: string; added: number; changed: number }).filter((d) => d.mode === 'upsert'),
    ).toEqual([expect.objectContaining({ added: 1, changed: 1 })])
  })

  it('one bad row refuses the whole file and writes nothing; the preview lists that row', async () => {
    const bad = ['code,nameZh,type', 'u_a,甲再改,blank', 'u_bad,坏,nonsense'].join('\n')
    const preview = await importFile('bad.csv', bad, '?mode=upsert&dryRun=true')
    expect(preview.status).toBe(200)
    expect(preview.body.data.errors).toEqual([expect.objectContaining({ row: 3, field: 'type' })])
    const run = await importFile('bad.csv', bad, '?mode=upsert')
    expect(run.status).toBe(400)
    expect(run.body.msg).toBe('Import failed: 1 row has errors, nothing was written')
    expect(await row('u_a')).toMatchObject({ name_zh: '甲改' })
    expect(await row('u_bad')).toBeUndefined()
  })

  it('add-only mode still refuses a code that exists', async () => {
    const { status, body } = await importFile('again.csv', ['code,nameZh,type', 'u_b,乙,blank'].join('\n'))
    expect(status).toBe(400)
    expect(body.data.errors).toEqual([
      expect.objectContaining({ row: 2, field: 'code', message: expect.stringContaining('u_b') as string }),
    ])
  })

  it('an indicator in a published version may be renamed, not retyped', async () => {
    const now = new Date().toISOString()
    const tpl = await t.db.kysely
      .insertInto('template')
      .values({ kind: 'crf', name: 'upsert_published', description: '', collect_type: 'all', status: 1, created_at: now, updated_at: now })
      .returning('id')
      .executeTakeFirstOrThrow()
    const v = await t.db.kysely
      .insertInto('template_version')
      .values({
        template_id: tpl.id,
        version: 1,
        state: 'published',
        sections: '[{"key":"s1","title":""}]',
        created_at: now,
        published_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    await t.db.kysely
      .insertInto('template_item')
      .values({ version_id: v.id, section_key: 's1', position: 0, indicator_id: (await row('u_c'))!.id, required: 0 })
      .execute()

    const retype = await importFile('retype.csv', ['code,nameZh,type', 'u_c,丙,blank'].join('\n'), '?mode=upsert')
    expect(retype.status).toBe(400)
    expect(retype.body.data.errors).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          row: 2,
          field: 'type',
          message: 'The indicator is in a published form: its type and data type can no longer change',
        }),
      ]),
    )
    expect(await row('u_c')).toMatchObject({ name_zh: '丙', type: 'single' })
    const rename = await importFile('rename.csv', ['code,nameZh,type', 'u_c,丙改,single'].join('\n'), '?mode=upsert')
    expect(rename.status, JSON.stringify(rename.body)).toBe(200)
    expect(await row('u_c')).toMatchObject({ name_zh: '丙改', type: 'single' })
  })
})

describe('export, then import again unedited', () => {
  it.each(['csv', 'xlsx', 'redcap'])('%s: every row is unchanged', async (format) => {
    const fixture = fs.readFileSync(fileURLToPath(new URL('../fixtures/redcap-dictionary.csv', import.meta.url)))
    // The first case adds REDCap's own fields beside those of the tests above: every kind of row.
    if (format === 'csv') expect((await importFile('redcap-dictionary.csv', fixture)).status).toBe(200)
    const exported = await t.app.inject({ method: 'GET', url: `/api/dictionary/export?format=${format}`, headers: { 'kr-d-token': token } })
    expect(exported.statusCode).toBe(200)
    const { status, body } = await importFile(
      format === 'xlsx' ? 'export.xlsx' : 'export.csv',
      exported.rawPayload,
      '?mode=upsert&dryRun=true',
    )
    expect(status, JSON.stringify(body)).toBe(200)
    expect(body.data.outcomes.filter((o) => o.status !== 'unchanged').map((o) => `${o.code}: ${o.fields.join()}`)).toEqual([])
    expect(body.data).toMatchObject({ added: 0, changed: 0, errorsTotal: 0 })
    expect(body.data.unchanged).toBe(await count())
  })
})

describe('upsert of a REDCap dictionary', () => {
  it('updates the fields of a form already here, keeps its layout and says so', async () => {
    const first = `${redcapHeader}\nrk_a,kept_form,,text,"First label",,,,,,,,,,,,,\n`
    expect((await importFile('first.csv', first)).status).toBe(200)
    const items = async () =>
      Number(
        (
          await t.db.kysely
            .selectFrom('template_item')
            .innerJoin('template_version', 'template_version.id', 'template_item.version_id')
            .innerJoin('template', 'template.id', 'template_version.template_id')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('template.name', '=', 'kept_form')
            .executeTakeFirstOrThrow()
        ).n,
      )
    expect(await items()).toBe(1)
    const again = `${redcapHeader}\nrk_a,kept_form,,text,"Second label",,,,,,,,,,,,,\nrk_b,kept_form,,text,"New field",,,,,,,,,,,,,\n`
    const { status, body } = await importFile('again.csv', again, '?mode=upsert')
    expect(status, JSON.stringify(body)).toBe(200)
    expect(body.data).toMatchObject({ added: 1, changed: 1, templates: 0 })
    expect(body.data.unmapped).toEqual([
      expect.objectContaining({
        row: 2,
        value: 'kept_form',
        message: 'The form kept_form already exists: its layout is kept as it is; place new fields in the designer',
      }),
    ])
    expect(await row('rk_a')).toMatchObject({ name_en: 'Second label' })
    expect(await items()).toBe(1)
  })
})

describe('REDCap text as it comes', () => {
  it('a valid UTF-8 file with U+FFFD in a label imports; bytes that are no text in any encoding are refused', async () => {
    const csv = `${redcapHeader}\nr_fffd,fffd_form,,text,"Weight \uFFFD kg",,,,,,,,,,,,,\n`
    const { status, body } = await importFile('fffd.csv', Buffer.from(csv, 'utf8'))
    expect(status, JSON.stringify(body)).toBe(200)
    expect((await row('r_fffd'))!.name_en).toBe('Weight \uFFFD kg')

    const broken = Buffer.concat([
      Buffer.from(`${redcapHeader}\nr_bad,bad_form,,text,"x`),
      Buffer.from([0x80, 0xff]),
      Buffer.from('",,,,,,,,,,,,,\n'),
    ])
    const refused = await importFile('broken.csv', broken)
    expect(refused.status).toBe(400)
    expect(refused.body.msg).toBe('The file encoding is not recognised; use UTF-8 or GBK')
  })

  it('choice labels of 500 characters and a long section header are kept whole', async () => {
    const label = '很'.repeat(500)
    const header = 'Section: ' + 'long header text '.repeat(20)
    const csv = `${redcapHeader}\nr_long,long_form,"${header}",radio,"Long choices","1, ${label} | 2, short",,,,,,,,,,,,\n`
    const { status, body } = await importFile('long.csv', csv)
    expect(status, JSON.stringify(body)).toBe(200)
    const options = JSON.parse((await row('r_long'))!.options) as { code: string; labelZh: string; labelEn: string }[]
    expect(options.map((o) => [o.code, o.labelEn.length])).toEqual([
      ['1', 500],
      ['2', 5],
    ])
    const version = await t.db.kysely
      .selectFrom('template as t')
      .innerJoin('template_version as v', 'v.template_id', 't.id')
      .select('v.sections')
      .where('t.name', '=', 'long_form')
      .executeTakeFirstOrThrow()
    expect((JSON.parse(version.sections) as { title: string }[])[0]!.title).toBe(header.trim())
    expect(header.trim().length).toBeGreaterThan(300)
  })
})
