import { sql, type Insertable } from 'kysely'
import type { Q } from '../query.ts'
import { scopeConditions, type ListScope } from '../scope.ts'
import type {
  TemplateItemRow,
  TemplateItemTable,
  TemplateRow,
  TemplateTable,
  TemplateVersionRow,
  TemplateVersionTable,
} from '../tables/template.ts'

/** CRF and question-group templates, their prepose edges, versions and placed items. */

export interface TemplateFilter {
  kind: string
  /** Part of the name, any case. */
  q?: string
  collectType?: string
}

/** Template lists are short (hundreds), so a substring scan is fine here, unlike indicators. */
export function listTemplateRows(db: Q, f: TemplateFilter, scope: ListScope): Promise<TemplateRow[]> {
  let q = db
    .selectFrom('template')
    .selectAll()
    .where((eb) => eb.and([...scopeConditions(scope), eb('kind', '=', f.kind)]))
  if (f.collectType) q = q.where('collect_type', '=', f.collectType)
  if (f.q) {
    // The typed text is matched literally: % and _ are escaped; lower() on both sides so each
    // dialect folds case the same way for the column and the pattern.
    const pattern = `%${f.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`
    q = q.where(sql<boolean>`lower(${sql.ref('name')}) like lower(${pattern}) escape '\\'`)
  }
  return q.orderBy('name').orderBy('id').execute()
}

export function findTemplateRow(db: Q, id: number): Promise<TemplateRow | undefined> {
  return db.selectFrom('template').selectAll().where('id', '=', id).executeTakeFirst()
}

export function findTemplateRows(db: Q, ids: readonly number[]): Promise<TemplateRow[]> {
  if (ids.length === 0) return Promise.resolve([])
  return db.selectFrom('template').selectAll().where('id', 'in', ids).execute()
}

/** Another template of the kind with exactly this name, if any. */
export function findTemplateByName(db: Q, kind: string, name: string, exceptId?: number): Promise<TemplateRow | undefined> {
  let q = db.selectFrom('template').selectAll().where('kind', '=', kind).where('name', '=', name)
  if (exceptId !== undefined) q = q.where('id', '<>', exceptId)
  return q.executeTakeFirst()
}

export async function insertTemplate(db: Q, row: Insertable<TemplateTable>): Promise<number> {
  const r = await db.insertInto('template').values(row).returning('id').executeTakeFirstOrThrow()
  return r.id
}

export async function updateTemplateRow(
  db: Q,
  templateId: number,
  values: Pick<TemplateRow, 'name' | 'description' | 'collect_type' | 'status' | 'updated_at'>,
): Promise<void> {
  await db.updateTable('template').set(values).where('id', '=', templateId).execute()
}

export async function touchTemplate(db: Q, templateId: number, at: string): Promise<void> {
  await db.updateTable('template').set({ updated_at: at }).where('id', '=', templateId).execute()
}

/**
 * Takes the template's row lock for the rest of the transaction (a no-op UPDATE: PostgreSQL
 * locks the row, SQLite already serialises writers) and answers whether the row exists.
 * Two writers of one template then never both compute "the next version" or both publish.
 */
export async function lockTemplate(db: Q, templateId: number): Promise<boolean> {
  const r = await db
    .updateTable('template')
    .set((eb) => ({ updated_at: eb.ref('updated_at') }))
    .where('id', '=', templateId)
    .executeTakeFirst()
  return Number(r.numUpdatedRows) === 1
}

/**
 * Locks every CRF row: the prepose cycle check reads the whole graph, so two concurrent edits
 * (A gains B while B gains A) must not each pass on the graph the other is changing. Taken
 * first in a transaction, before any single-row lock, so writers queue in one order.
 */
export async function lockAllCrfs(db: Q): Promise<void> {
  await db
    .updateTable('template')
    .set((eb) => ({ updated_at: eb.ref('updated_at') }))
    .where('kind', '=', 'crf')
    .execute()
}

/** Every prepose edge: template_id must be filled after prepose_id. */
export function allPreposeEdges(db: Q): Promise<{ template_id: number; prepose_id: number }[]> {
  return db.selectFrom('template_prepose').select(['template_id', 'prepose_id']).execute()
}

export function preposesOf(db: Q, templateIds: readonly number[]): Promise<{ template_id: number; prepose_id: number }[]> {
  if (templateIds.length === 0) return Promise.resolve([])
  return db
    .selectFrom('template_prepose')
    .select(['template_id', 'prepose_id'])
    .where('template_id', 'in', templateIds)
    .orderBy('template_id')
    .orderBy('prepose_id')
    .execute()
}

/** Templates that name this one as a prepose. */
export async function dependentsOf(db: Q, templateId: number): Promise<number[]> {
  const rows = await db
    .selectFrom('template_prepose')
    .select('template_id')
    .where('prepose_id', '=', templateId)
    .orderBy('template_id')
    .execute()
  return rows.map((r) => r.template_id)
}

export async function replacePreposes(db: Q, templateId: number, preposeIds: readonly number[]): Promise<void> {
  await db.deleteFrom('template_prepose').where('template_id', '=', templateId).execute()
  if (preposeIds.length > 0) {
    await db
      .insertInto('template_prepose')
      .values(preposeIds.map((p) => ({ template_id: templateId, prepose_id: p })))
      .execute()
  }
}

/** Versions of the templates, oldest first within each template. */
export function versionsOf(db: Q, templateIds: readonly number[]): Promise<TemplateVersionRow[]> {
  if (templateIds.length === 0) return Promise.resolve([])
  return db
    .selectFrom('template_version')
    .selectAll()
    .where('template_id', 'in', templateIds)
    .orderBy('template_id')
    .orderBy('version')
    .execute()
}

export function findVersion(db: Q, templateId: number, version: number): Promise<TemplateVersionRow | undefined> {
  return db
    .selectFrom('template_version')
    .selectAll()
    .where('template_id', '=', templateId)
    .where('version', '=', version)
    .executeTakeFirst()
}

export async function insertVersion(db: Q, row: Insertable<TemplateVersionTable>): Promise<number> {
  const r = await db.insertInto('template_version').values(row).returning('id').executeTakeFirstOrThrow()
  return r.id
}

export async function setVersionSections(db: Q, versionId: number, sections: string): Promise<void> {
  await db.updateTable('template_version').set({ sections }).where('id', '=', versionId).where('state', '=', 'draft').execute()
}

/** Freezes a draft with its snapshot; answers false when it was no longer a draft. */
export async function publishVersion(db: Q, versionId: number, at: string, snapshot: string): Promise<boolean> {
  const r = await db
    .updateTable('template_version')
    .set({ state: 'published', published_at: at, snapshot })
    .where('id', '=', versionId)
    .where('state', '=', 'draft')
    .executeTakeFirst()
  return Number(r.numUpdatedRows) === 1
}

/** Items of the versions, in section then position order. */
export function itemsOf(db: Q, versionIds: readonly number[]): Promise<TemplateItemRow[]> {
  if (versionIds.length === 0) return Promise.resolve([])
  return db
    .selectFrom('template_item')
    .selectAll()
    .where('version_id', 'in', versionIds)
    .orderBy('version_id')
    .orderBy('section_key')
    .orderBy('position')
    .execute()
}

export async function itemCounts(db: Q, versionIds: readonly number[]): Promise<Map<number, number>> {
  if (versionIds.length === 0) return new Map()
  const rows = await db
    .selectFrom('template_item')
    .select((eb) => ['version_id', eb.fn.countAll().as('n')])
    .where('version_id', 'in', versionIds)
    .groupBy('version_id')
    .execute()
  return new Map(rows.map((r) => [r.version_id, Number(r.n)]))
}

/** Empties a draft's items before it is written again; published versions are never passed here. */
export async function clearItems(db: Q, versionId: number): Promise<void> {
  await db.deleteFrom('template_item').where('version_id', '=', versionId).execute()
}

/** The caller keeps each call's rows few enough for the dialect's parameter limit. */
export async function insertItems(db: Q, versionId: number, items: readonly Omit<TemplateItemTable, 'version_id'>[]): Promise<void> {
  if (items.length === 0) return
  await db
    .insertInto('template_item')
    .values(items.map((i) => ({ ...i, version_id: versionId })))
    .execute()
}

/** Whether the template has a published version. */
export async function templateHasPublished(db: Q, templateId: number): Promise<boolean> {
  const row = await db
    .selectFrom('template_version')
    .select('id')
    .where('template_id', '=', templateId)
    .where('state', '=', 'published')
    .limit(1)
    .executeTakeFirst()
  return row !== undefined
}

/** Copies a version's placed items into another version (a new version of an unchanged layout). */
export async function copyItems(db: Q, fromVersionId: number, toVersionId: number): Promise<void> {
  await db
    .insertInto('template_item')
    .columns(['version_id', 'section_key', 'position', 'indicator_id', 'required'])
    .expression((eb) =>
      eb
        .selectFrom('template_item')
        .select([eb.val(toVersionId).as('version_id'), 'section_key', 'position', 'indicator_id', 'required'])
        .where('version_id', '=', fromVersionId),
    )
    .execute()
}

/** Whether any version of the template, draft or published, places an indicator. */
export async function templateHasItems(db: Q, templateId: number): Promise<boolean> {
  const row = await db
    .selectFrom('template_item')
    .innerJoin('template_version', 'template_version.id', 'template_item.version_id')
    .select('template_item.version_id')
    .where('template_version.template_id', '=', templateId)
    .limit(1)
    .executeTakeFirst()
  return row !== undefined
}

/**
 * Deletes the template with its versions, items and prepose edges in both directions. Explicit
 * rather than left to ON DELETE CASCADE, which SQLite honours only with foreign_keys on.
 */
export async function deleteTemplateRows(db: Q, templateId: number): Promise<void> {
  const versionIds = db.selectFrom('template_version').select('id').where('template_id', '=', templateId)
  await db.deleteFrom('template_item').where('version_id', 'in', versionIds).execute()
  await db.deleteFrom('template_version').where('template_id', '=', templateId).execute()
  await db
    .deleteFrom('template_prepose')
    .where((eb) => eb.or([eb('template_id', '=', templateId), eb('prepose_id', '=', templateId)]))
    .execute()
  await db.deleteFrom('template').where('id', '=', templateId).execute()
}
