import { CompiledQuery } from 'kysely'
import { z } from 'zod'
import type { IndicatorInput } from '../../../contract/dictionary.ts'
import type { Q } from '../query.ts'
import type { IndicatorRow } from '../tables/dictionary.ts'
import { filterConditions, indicatorValues, type IndicatorFilter } from './indicators.ts'

/**
 * The queries of dictionary exchange: batch reads for validation and export, multi-row inserts and
 * updates for the import, and the CRF rows an imported REDCap form becomes. Plain functions over
 * the database or an open transaction; the rules that decide what to write stay in
 * server/services/dictionaryExchange.
 */

/** Bound parameters per statement stay far below SQLite's 32,766 and PostgreSQL's 65,535. */
const inChunk = 1000
const insertChunk = 500

function chunks<T>(xs: readonly T[], size: number): T[][] {
  const out: T[][] = []
  for (let i = 0; i < xs.length; i += size) out.push(xs.slice(i, i + size))
  return out
}

export async function indicatorsByCodes(db: Q, codes: readonly string[]): Promise<IndicatorRow[]> {
  const out: IndicatorRow[] = []
  for (const part of chunks([...new Set(codes)], inChunk)) {
    out.push(...(await db.selectFrom('indicator').selectAll().where('code', 'in', part).execute()))
  }
  return out
}

/** The indicators that depend on any of these. */
export async function dependentsOfIds(db: Q, ids: readonly number[]): Promise<IndicatorRow[]> {
  const out: IndicatorRow[] = []
  for (const part of chunks([...new Set(ids)], inChunk)) {
    out.push(...(await db.selectFrom('indicator').selectAll().where('dependent_field_id', 'in', part).execute()))
  }
  return out
}

/** The column of each field a person edits (the keys of indicatorValues, in the contract's names). */
const columnOf = {
  code: 'code',
  nameZh: 'name_zh',
  nameEn: 'name_en',
  comment: 'comment',
  type: 'type',
  display: 'display',
  dataType: 'data_type',
  options: 'options',
  dependentFieldId: 'dependent_field_id',
  dependentValue: 'dependent_value',
  unit: 'unit',
  minimum: 'minimum',
  maximum: 'maximum',
  dateFormat: 'date_format',
  defaultValue: 'default_value',
  status: 'status',
  indexClass: 'index_class',
  category: 'category',
  diseaseId: 'disease_id',
} as const satisfies Record<keyof IndicatorInput, keyof ReturnType<typeof indicatorValues>>

/**
 * Stored indicators written over: an import updating the codes it names. Only the changed columns
 * are set, so the database rewrites only the list indexes (migration 0006) that hold them.
 */
export async function updateIndicators(
  db: Q,
  rows: readonly (NewIndicator & { id: number; changed: readonly (keyof IndicatorInput)[] })[],
  now: string,
): Promise<void> {
  for (const r of rows) {
    const values: Record<string, unknown> = { ...indicatorValues(r.input), dependent_field_id: r.dependentId }
    const set = Object.fromEntries(r.changed.map((f) => [columnOf[f], values[columnOf[f]]]))
    await db
      .updateTable('indicator')
      .set({ ...set, updated_at: now })
      .where('id', '=', r.id)
      .execute()
  }
}

export async function existingCodes(db: Q, codes: readonly string[]): Promise<Set<string>> {
  const out = new Set<string>()
  for (const part of chunks([...new Set(codes)], inChunk)) {
    for (const r of await db.selectFrom('indicator').select('code').where('code', 'in', part).execute()) out.add(r.code)
  }
  return out
}

/** Diseases by Chinese name, or English name in any case. */
export async function diseasesByName(db: Q, names: readonly string[]): Promise<Map<string, number>> {
  const out = new Map<string, number>()
  if (names.length === 0) return out
  // The disease table is small reference data: reading it whole beats an OR of two IN lists.
  for (const d of await db.selectFrom('disease').select(['id', 'name', 'name_en']).execute()) {
    out.set(d.name, d.id)
    if (d.name_en && !out.has(d.name_en.toLowerCase())) out.set(d.name_en.toLowerCase(), d.id)
  }
  return out
}

export async function diseaseNames(db: Q): Promise<Map<number, string>> {
  const rows = await db.selectFrom('disease').select(['id', 'name']).execute()
  return new Map(rows.map((r) => [r.id, r.name]))
}

export async function diseaseExists(db: Q, id: number): Promise<boolean> {
  return (await db.selectFrom('disease').select('id').where('id', '=', id).executeTakeFirst()) !== undefined
}

export async function crfNamesTaken(db: Q, names: readonly string[]): Promise<Set<string>> {
  const out = new Set<string>()
  for (const part of chunks([...new Set(names)], inChunk)) {
    const rows = await db.selectFrom('template').select('name').where('kind', '=', 'crf').where('name', 'in', part).execute()
    for (const r of rows) out.add(r.name)
  }
  return out
}

export interface NewIndicator {
  input: IndicatorInput
  dependentId: number | null
}

/**
 * Multi-row inserts; the ids come back with their codes, so nothing relies on RETURNING order.
 *
 * Building and compiling a 500-row statement (10,500 parameters) costs Kysely about as much as
 * SQLite takes to run it, beyond DESIGN §8's ≤ 1.3× over raw SQL. Every chunk of one size has the
 * same SQL text, so it is compiled once and reused with the next chunk's parameters. Kysely lays
 * out a multi-row insert's parameters row by row in the order of the rows' keys, and all rows come
 * from one function with the same keys: checked, and compiled afresh should that ever not hold.
 */
export async function insertIndicators(db: Q, rows: readonly NewIndicator[], now: string): Promise<Map<string, number>> {
  const ids = new Map<string, number>()
  let compiled: { rows: number; sql: string; keys: string } | null = null
  for (const part of chunks(rows, insertChunk)) {
    const values = part.map((r) => ({ ...indicatorValues(r.input), dependent_field_id: r.dependentId, created_at: now, updated_at: now }))
    const keys = Object.keys(values[0]!).join()
    const params = values.flatMap((v) => Object.values(v) as unknown[])
    if (!compiled || compiled.rows !== values.length || compiled.keys !== keys) {
      const q = db.insertInto('indicator').values(values).returning(['id', 'code']).compile()
      const sameLayout = q.parameters.length === params.length && q.parameters.every((p, i) => p === params[i])
      compiled = sameLayout ? { rows: values.length, sql: q.sql, keys } : null
      const result = await db.executeQuery(q)
      for (const r of result.rows) ids.set(r.code, r.id)
      continue
    }
    const result = await db.executeQuery<{ id: number; code: string }>(CompiledQuery.raw(compiled.sql, params))
    for (const r of result.rows) ids.set(r.code, r.id)
  }
  return ids
}

export interface NewCrf {
  name: string
  description: string
  sections: { key: string; title: string; repeating: boolean }[]
  items: { sectionKey: string; position: number; indicatorId: number; required: boolean }[]
}

/** A CRF with its first version as a draft, in the shape of the template tables (see the 0002 migration). */
export async function insertCrf(db: Q, crf: NewCrf, now: string): Promise<number> {
  const t = await db
    .insertInto('template')
    .values({ kind: 'crf', name: crf.name, description: crf.description, collect_type: 'all', status: 1, created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow()
  const v = await db
    .insertInto('template_version')
    .values({ template_id: t.id, version: 1, state: 'draft', sections: JSON.stringify(crf.sections), created_at: now, published_at: null })
    .returning('id')
    .executeTakeFirstOrThrow()
  for (const part of chunks(crf.items, insertChunk)) {
    await db
      .insertInto('template_item')
      .values(
        part.map((i) => ({
          version_id: v.id,
          section_key: i.sectionKey,
          position: i.position,
          indicator_id: i.indicatorId,
          required: i.required ? 1 : 0,
        })),
      )
      .execute()
  }
  return t.id
}

// ---------------------------------------------------------------------------------------------
// Export reads

export type { IndicatorFilter }

/** The list's own filters, so an export holds exactly the rows the list shows. */
function filtered(db: Q, f: IndicatorFilter) {
  return db
    .selectFrom('indicator')
    .selectAll()
    .where((eb) => eb.and(filterConditions(eb, f)))
}

/** Keyset page by id (DESIGN §6): an export of any size reads in constant-cost steps. */
export function indicatorPage(db: Q, f: IndicatorFilter, afterId: number, limit: number): Promise<IndicatorRow[]> {
  return filtered(db, f).where('id', '>', afterId).orderBy('id').limit(limit).execute()
}

export async function indicatorsByIds(db: Q, ids: readonly number[], f: IndicatorFilter = {}): Promise<IndicatorRow[]> {
  const out: IndicatorRow[] = []
  for (const part of chunks([...new Set(ids)], inChunk)) out.push(...(await filtered(db, f).where('id', 'in', part).execute()))
  return out
}

const sectionsJson = z.array(z.object({ key: z.string(), title: z.string().optional() }).loose())

export interface CrfLayout {
  id: number
  name: string
  sections: { key: string; title: string }[]
  /** In form order: by section order, then position. */
  items: { indicatorId: number; sectionKey: string; required: boolean }[]
}

/**
 * Every CRF (or one) with the items of its latest version: the draft being edited, or the last
 * published version when no draft is open.
 */
export async function crfLayouts(db: Q, templateId?: number): Promise<CrfLayout[]> {
  let q = db
    .selectFrom('template as t')
    .innerJoin('template_version as v', 'v.template_id', 't.id')
    .select(['t.id', 't.name', 'v.id as versionId', 'v.sections'])
    .where('t.kind', '=', 'crf')
    .where('v.version', '=', (eb) =>
      eb
        .selectFrom('template_version as v2')
        .select((e) => e.fn.max('v2.version').as('m'))
        .whereRef('v2.template_id', '=', 't.id'),
    )
    .orderBy('t.id')
  if (templateId !== undefined) q = q.where('t.id', '=', templateId)
  const templates = await q.execute()
  const out: CrfLayout[] = []
  for (const t of templates) {
    const parsed = sectionsJson.safeParse(JSON.parse(t.sections))
    const sections = parsed.success ? parsed.data.map((s) => ({ key: s.key, title: s.title ?? '' })) : []
    const rows = await db
      .selectFrom('template_item')
      .select(['indicator_id', 'section_key', 'position', 'required'])
      .where('version_id', '=', t.versionId)
      .orderBy('position')
      .execute()
    // Sections the JSON does not list (it should list all) come last, in their first item's order.
    const order = new Map(sections.map((s, i) => [s.key, i]))
    for (const r of rows) if (!order.has(r.section_key)) order.set(r.section_key, order.size)
    rows.sort((a, b) => order.get(a.section_key)! - order.get(b.section_key)! || a.position - b.position)
    out.push({
      id: t.id,
      name: t.name,
      sections,
      items: rows.map((r) => ({ indicatorId: r.indicator_id, sectionKey: r.section_key, required: r.required === 1 })),
    })
  }
  return out
}

export async function crfExists(db: Q, id: number): Promise<boolean> {
  return (await db.selectFrom('template').select('id').where('id', '=', id).where('kind', '=', 'crf').executeTakeFirst()) !== undefined
}
