/**
 * Migrations 20261127_0010 (choice codes) and 0011 (version snapshots) on a database holding rows
 * written in the old shape: plain-text options, defaults and dependent values naming option
 * texts, REDCap codes kept in the comment, and a version published before snapshots existed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Insertable } from 'kysely'
import { migrateTo } from '../../server/db/migrate.ts'
import type { IndicatorTable } from '../../server/db/tables/dictionary.ts'
import { freshDb } from '../support/testDb.ts'

let db: Awaited<ReturnType<typeof freshDb>>
beforeAll(async () => {
  db = await freshDb('20261126_0004_indicator_search')
})
afterAll(() => db.drop())

const now = '2026-11-01T00:00:00.000Z'
const base = {
  name_en: '',
  comment: '',
  data_type: 'text',
  unit: '',
  status: 1,
  index_class: '',
  category: 'all',
  created_at: now,
  updated_at: now,
}

describe('old rows are carried to choice codes and snapshots', () => {
  it('turns option texts into codes, rewrites defaults and dependent values, snapshots published versions', async () => {
    const k = db.kysely
    type Row = Pick<Insertable<IndicatorTable>, 'code' | 'name_zh' | 'type' | 'display' | 'options'> & Partial<Insertable<IndicatorTable>>
    const insert = async (row: Row) =>
      (
        await k
          .insertInto('indicator')
          .values({ ...base, ...row })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id
    const sex = await insert({
      code: 'sex',
      name_zh: '性别',
      type: 'single',
      display: 'radio',
      options: '["男","女"]',
      default_value: '女',
    })
    const sym = await insert({
      code: 'sym',
      name_zh: '症状',
      type: 'multiple',
      display: 'checkbox',
      options: '["咳嗽","发热","乏力"]',
      default_value: '咳嗽|乏力',
    })
    const preg = await insert({
      code: 'preg',
      name_zh: '怀孕',
      type: 'blank',
      display: 'input',
      options: '[]',
      dependent_field_id: sex,
      dependent_value: '女',
    })
    const smoke = await insert({
      code: 'smoke',
      name_zh: 'Smoking',
      type: 'single',
      display: 'select',
      options: '["Never","Former","Current"]',
      default_value: 'Never',
      comment: 'note\n@redcap {"codes":["0","1","2"]}',
    })
    const yes = await insert({
      code: 'consent',
      name_zh: 'Consent',
      type: 'single',
      display: 'radio',
      options: '["Yes","No"]',
      comment: '@redcap {"type":"yesno"}',
    })
    const packs = await insert({
      code: 'packs',
      name_zh: 'Packs',
      type: 'blank',
      display: 'input',
      options: '[]',
      dependent_field_id: smoke,
      dependent_value: 'Current',
    })

    const tpl = (
      await k
        .insertInto('template')
        .values({ kind: 'crf', name: 'Old CRF', description: '', collect_type: 'all', status: 1, created_at: now, updated_at: now })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id
    const sections = JSON.stringify([{ key: 's1', title: 'One', repeating: false }])
    const v1 = (
      await k
        .insertInto('template_version')
        .values({ template_id: tpl, version: 1, state: 'published', sections, created_at: now, published_at: now })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id
    await k
      .insertInto('template_item')
      .values(
        [sex, preg].map((indicator_id, position) => ({ version_id: v1, section_key: 's1', position, indicator_id, required: position })),
      )
      .execute()

    await migrateTo(db)

    const row = (id: number) => k.selectFrom('indicator').selectAll().where('id', '=', id).executeTakeFirstOrThrow()
    const both = (code: string, l: string) => ({ code, labelZh: l, labelEn: l })
    expect(JSON.parse((await row(sex)).options)).toEqual([both('1', '男'), both('2', '女')])
    expect((await row(sex)).default_value).toBe('2')
    expect(JSON.parse((await row(sym)).options)).toEqual([both('1', '咳嗽'), both('2', '发热'), both('3', '乏力')])
    expect((await row(sym)).default_value).toBe('1|3')
    expect((await row(preg)).dependent_value).toBe('2')
    // A REDCap import's own codes, noted in its comment, become the codes.
    expect(JSON.parse((await row(smoke)).options)).toEqual([both('0', 'Never'), both('1', 'Former'), both('2', 'Current')])
    expect((await row(smoke)).default_value).toBe('0')
    expect((await row(packs)).dependent_value).toBe('2')
    expect(JSON.parse((await row(yes)).options)).toEqual([both('1', 'Yes'), both('0', 'No')])

    const version = await k.selectFrom('template_version').selectAll().where('id', '=', v1).executeTakeFirstOrThrow()
    const snapshot = JSON.parse(version.snapshot ?? 'null') as {
      layout: unknown
      fields: { code: string; options: unknown; dependentCode: string | null }[]
    }
    expect(snapshot.layout).toEqual({
      sections: [
        {
          key: 's1',
          title: 'One',
          repeating: false,
          items: [
            { indicatorId: sex, required: false },
            { indicatorId: preg, required: true },
          ],
        },
      ],
    })
    expect(snapshot.fields.map((f) => [f.code, f.dependentCode])).toEqual([
      ['sex', null],
      ['preg', 'sex'],
    ])
    expect(snapshot.fields[0]?.options).toEqual([both('1', '男'), both('2', '女')])
  })
})
