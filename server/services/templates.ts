import { z } from 'zod'
import {
  collectTypes,
  layout as layoutSchema,
  layoutSection,
  maxFormItems,
  versionField,
  type CollectType,
  type generateState,
  type Layout,
  type Template,
  type TemplateInput,
  type TemplateKind,
  type TemplateVersion,
  type VersionField,
  type VersionInfo,
} from '../../contract/crf.ts'
import type { Q } from '../db/query.ts'
import type { ListScope } from '../db/scope.ts'
import { findIndicatorsByIds, indicatorsInPublishedVersions } from '../db/repositories/indicators.ts'
import * as repo from '../db/repositories/templates.ts'
import type { IndicatorRow } from '../db/tables/dictionary.ts'
import type { TemplateItemRow, TemplateRow, TemplateVersionRow } from '../db/tables/template.ts'
import { audit, type Actor } from './audit.ts'
import type { ServiceContext } from './context.ts'
import { ServiceError } from './errors.ts'
import { toIndicator } from './indicatorView.ts'

/**
 * CRFs and question groups (SPEC §3): one model, two kinds. A template's versions are drafts
 * until published (SPEC §7 save…GenerateToDb); a published version is never written again, so
 * data saved against it stays readable. At most one draft exists, and it is the newest version.
 */

export type GenerateState = z.infer<typeof generateState>
export interface TemplateFilter {
  kind: TemplateKind
  q?: string | undefined
  collectType?: CollectType | undefined
}

/** Ids are INTEGER columns; a larger number cannot name a row and would fail the whole statement on PostgreSQL. */
const maxDbInt = 2_147_483_647
const storable = (n: number) => Number.isSafeInteger(n) && n > 0 && n <= maxDbInt

/** IN lists and multi-row inserts stay well below SQLite's and PostgreSQL's parameter limits. */
const chunk = 1000
async function inChunks<T, R>(items: readonly T[], run: (part: T[]) => Promise<R[]>): Promise<R[]> {
  const out: R[] = []
  for (let i = 0; i < items.length; i += chunk) out.push(...(await run(items.slice(i, i + chunk))))
  return out
}

// ---------------------------------------------------------------------------------------------
// Row ↔ contract

/** What template_version.sections holds: the sections without their items (those are rows). */
const sectionHeads = z.array(layoutSection.pick({ key: true, title: true, repeating: true }))

const emptyLayout: Layout = { sections: [] }

/** Fixed key order, so two layouts compare by their JSON. */
function canon(l: Layout): Layout {
  return {
    sections: l.sections.map((s) => ({
      key: s.key,
      title: s.title,
      repeating: s.repeating,
      items: s.items.map((i) => ({ indicatorId: i.indicatorId, required: i.required })),
    })),
  }
}
const sameLayout = (a: Layout, b: Layout) => JSON.stringify(canon(a)) === JSON.stringify(canon(b))

function layoutOf(v: TemplateVersionRow, items: readonly TemplateItemRow[]): Layout {
  const mine = items.filter((i) => i.version_id === v.id)
  return {
    sections: sectionHeads.parse(JSON.parse(v.sections)).map((h) => ({
      key: h.key,
      title: h.title,
      repeating: h.repeating,
      items: mine
        .filter((i) => i.section_key === h.key)
        .sort((a, b) => a.position - b.position)
        .map((i) => ({ indicatorId: i.indicator_id, required: i.required === 1 })),
    })),
  }
}

const indicatorIdsOf = (l: Layout) => l.sections.flatMap((s) => s.items.map((i) => i.indicatorId))

function versionInfo(v: TemplateVersionRow): VersionInfo {
  return { id: v.id, version: v.version, state: v.state === 'published' ? 'published' : 'draft', publishedAt: v.published_at }
}

const draftOf = (vs: readonly TemplateVersionRow[]) => vs.findLast((v) => v.state === 'draft')
const publishedOf = (vs: readonly TemplateVersionRow[]) => vs.findLast((v) => v.state === 'published')
/** The version the designer sees: the draft, else the latest published one. */
const currentOf = (vs: readonly TemplateVersionRow[]) => draftOf(vs) ?? publishedOf(vs)

const kindOf = (r: TemplateRow): TemplateKind => (r.kind === 'group' ? 'group' : 'crf')
const collectTypeOf = (r: TemplateRow): CollectType => collectTypes.find((c) => c === r.collect_type) ?? 'other'

/** Templates as the contract shows them, with a fixed number of queries for any number of rows. */
async function templateViews(db: Q, rows: readonly TemplateRow[]): Promise<Template[]> {
  const ids = rows.map((r) => r.id)
  const versions = await inChunks(ids, (part) => repo.versionsOf(db, part))
  const edges = await inChunks(ids, (part) => repo.preposesOf(db, part))
  const versionsBy = new Map<number, TemplateVersionRow[]>()
  for (const v of versions) versionsBy.set(v.template_id, [...(versionsBy.get(v.template_id) ?? []), v])
  const preposesBy = new Map<number, number[]>()
  for (const e of edges) preposesBy.set(e.template_id, [...(preposesBy.get(e.template_id) ?? []), e.prepose_id])
  const currentIds = rows.flatMap((r) => currentOf(versionsBy.get(r.id) ?? [])?.id ?? [])
  const counts = new Map((await inChunks(currentIds, async (part) => [...(await repo.itemCounts(db, part))])).map(([k, n]) => [k, n]))
  return rows.map((r) => {
    const vs = versionsBy.get(r.id) ?? []
    const draft = draftOf(vs)
    const published = publishedOf(vs)
    const current = draft ?? published
    return {
      id: r.id,
      kind: kindOf(r),
      name: r.name,
      description: r.description,
      collectType: collectTypeOf(r),
      preposeIds: preposesBy.get(r.id) ?? [],
      status: r.status === 1 ? 1 : 0,
      indexCount: current ? (counts.get(current.id) ?? 0) : 0,
      draft: draft ? versionInfo(draft) : null,
      published: published ? versionInfo(published) : null,
      updatedAt: r.updated_at,
    }
  })
}

async function templateView(db: Q, id: number): Promise<Template> {
  const [view] = await templateViews(db, [await load(db, id)])
  if (!view) throw notFound(id)
  return view
}

/** What template_version.snapshot holds: the layout and the fields as they were at publication. */
const snapshotSchema = z.object({ layout: layoutSchema, fields: z.array(versionField) })
type Snapshot = z.infer<typeof snapshotSchema>

/** The fields a layout places, in layout order, as the dictionary holds them now. */
async function liveFields(db: Q, layout: Layout): Promise<VersionField[]> {
  const ids = indicatorIdsOf(layout)
  const rows = await inChunks(ids, (part) => findIndicatorsByIds(db, part))
  const inUse = new Set(await inChunks(ids, async (part) => [...(await indicatorsInPublishedVersions(db, part))]))
  const byId = new Map(rows.map((r) => [r.id, r]))
  const depIds = [
    ...new Set(rows.flatMap((r) => (r.dependent_field_id !== null && !byId.has(r.dependent_field_id) ? [r.dependent_field_id] : []))),
  ]
  const codeOf = new Map(rows.map((r) => [r.id, r.code]))
  for (const d of await inChunks(depIds, (part) => findIndicatorsByIds(db, part))) codeOf.set(d.id, d.code)
  return ids.flatMap((i) => {
    const r = byId.get(i)
    if (!r) return []
    return [
      {
        ...toIndicator(r, inUse.has(r.id)),
        dependentCode: r.dependent_field_id === null ? null : (codeOf.get(r.dependent_field_id) ?? null),
      },
    ]
  })
}

/** A published version's snapshot; it is written when publishing, so a missing one is a broken invariant. */
function snapshotOf(v: TemplateVersionRow): Snapshot {
  if (v.snapshot === null) throw new Error(`published version ${v.id} has no snapshot`)
  return snapshotSchema.parse(JSON.parse(v.snapshot))
}

/**
 * A version with its layout and fields: a published one from its snapshot only, so later edits
 * to the dictionary never change it; a draft as the dictionary is now.
 */
async function versionView(db: Q, v: TemplateVersionRow): Promise<TemplateVersion> {
  if (v.state === 'published') {
    const s = snapshotOf(v)
    return { ...versionInfo(v), templateId: v.template_id, layout: s.layout, indicators: s.fields }
  }
  const layout = layoutOf(v, await repo.itemsOf(db, [v.id]))
  return { ...versionInfo(v), templateId: v.template_id, layout, indicators: await liveFields(db, layout) }
}

/**
 * The fields' definitions as far as publishing is concerned: what each is, not when it was saved,
 * whether it is switched on, or where it is used. Values in a fixed order, so a snapshot read back
 * and a definition read live compare equal when they are.
 */
const notDefinition = new Set(['inUse', 'createdAt', 'updatedAt', 'status'])
const definitionKeys = (Object.keys(versionField.shape) as (keyof VersionField)[]).filter((k) => !notDefinition.has(k))
const definitionKey = (fields: readonly VersionField[]) =>
  JSON.stringify(
    fields.map((f) => definitionKeys.map((k) => (k === 'options' ? f.options.map((c) => [c.code, c.labelZh, c.labelEn]) : f[k]))),
  )

// ---------------------------------------------------------------------------------------------
// Refusals

const notFound = (id: number) => new ServiceError('notFound', 'template.notFound', [id])

async function load(db: Q, id: number): Promise<TemplateRow> {
  const row = storable(id) ? await repo.findTemplateRow(db, id) : undefined
  if (!row) throw notFound(id)
  return row
}

/** Loads the template holding its row lock until the transaction ends (see repo.lockTemplate). */
async function loadLocked(db: Q, id: number): Promise<TemplateRow> {
  if (!storable(id) || !(await repo.lockTemplate(db, id))) throw notFound(id)
  return load(db, id)
}

/** The SPEC §7 calls are per kind: a question group sent to the CRF call is a caller's mistake. */
function expectKind(t: TemplateRow, kind: TemplateKind): void {
  if (kindOf(t) !== kind) throw new ServiceError('badRequest', kind === 'crf' ? 'template.notCrf' : 'template.notGroup', [t.id])
}

/** Two CRFs (or two groups) of one name would be indistinguishable in every picker. */
async function assertNameFree(db: Q, kind: TemplateKind, name: string, exceptId?: number): Promise<void> {
  if (await repo.findTemplateByName(db, kind, name, exceptId)) throw new ServiceError('conflict', 'rule.exists', [name])
}

/**
 * Prepose CRFs must be existing CRFs, and the prepose graph must stay acyclic: a CRF that (through
 * any chain) must be filled after itself could never be filled. `self` is undefined on create,
 * where no edge can yet lead back to the new template.
 */
async function checkPreposes(db: Q, kind: TemplateKind, self: number | undefined, wanted: readonly number[]): Promise<number[]> {
  const ids = [...new Set(wanted)]
  if (ids.length === 0) return []
  if (kind === 'group') throw new ServiceError('badRequest', 'template.preposeGroup')
  if (self !== undefined && ids.includes(self)) throw new ServiceError('conflict', 'template.preposeCycle')
  const found = new Map((await repo.findTemplateRows(db, ids.filter(storable))).map((r) => [r.id, r]))
  const missing = ids.find((p) => found.get(p)?.kind !== 'crf')
  if (missing !== undefined) throw new ServiceError('badRequest', 'template.preposeMissing', [missing])
  if (self === undefined) return ids

  // The edges of `self` are being replaced, so only the others count; a cycle appears exactly
  // when `self` is reachable from one of its new preposes.
  const next = new Map<number, number[]>()
  for (const e of await repo.allPreposeEdges(db)) {
    if (e.template_id !== self) next.set(e.template_id, [...(next.get(e.template_id) ?? []), e.prepose_id])
  }
  const seen = new Set<number>()
  const stack = [...ids]
  while (stack.length > 0) {
    const at = stack.pop()
    if (at === undefined || seen.has(at)) continue
    if (at === self) throw new ServiceError('conflict', 'template.preposeCycle')
    seen.add(at)
    stack.push(...(next.get(at) ?? []))
  }
  return ids
}

function checkSections(l: Layout): void {
  const n = indicatorIdsOf(l).length
  if (n > maxFormItems) throw new ServiceError('badRequest', 'template.tooManyItems', [maxFormItems, n])
  const keys = new Set<string>()
  for (const s of l.sections) {
    if (keys.has(s.key)) throw new ServiceError('badRequest', 'template.duplicateSection', [s.key])
    keys.add(s.key)
  }
}

/** Every placed indicator exists, and none is placed twice anywhere in the form. */
async function checkItems(db: Q, l: Layout): Promise<void> {
  const ids = indicatorIdsOf(l)
  const unique = [...new Set(ids)]
  const rows: IndicatorRow[] = await inChunks(unique.filter(storable), (part) => findIndicatorsByIds(db, part))
  const found = new Map(rows.map((r) => [r.id, r]))
  const missing = unique.find((i) => !found.has(i))
  if (missing !== undefined) throw new ServiceError('badRequest', 'template.indicatorMissing', [missing])
  const seen = new Set<number>()
  for (const i of ids) {
    if (seen.has(i)) throw new ServiceError('badRequest', 'template.duplicateIndicator', [found.get(i)?.code ?? i])
    seen.add(i)
  }
}

async function mustFindVersion(db: Q, templateId: number, version: number): Promise<TemplateVersionRow> {
  const v = await repo.findVersion(db, templateId, version)
  if (!v) throw new ServiceError('notFound', 'template.versionNotFound', [version])
  return v
}

/**
 * The draft, the latest published version, and whether publishing would change anything: the
 * form as it would be published now (the draft, else the published layout, with today's field
 * definitions) differs from the latest snapshot. Before the first publication it is compared
 * with an empty form: an empty CRF has nothing worth publishing.
 */
async function stateOf(db: Q, id: number) {
  const vs = await repo.versionsOf(db, [id])
  const draft = draftOf(vs)
  const published = publishedOf(vs)
  const candidate = draft ?? published
  const layout = candidate ? layoutOf(candidate, await repo.itemsOf(db, [candidate.id])) : emptyLayout
  const before = published ? snapshotOf(published) : { layout: emptyLayout, fields: [] }
  const pending = !sameLayout(layout, before.layout) || definitionKey(await liveFields(db, layout)) !== definitionKey(before.fields)
  return { draft, published, pending, empty: indicatorIdsOf(layout).length === 0, newest: vs.at(-1)?.version ?? 0 }
}

// ---------------------------------------------------------------------------------------------
// Reads

export async function listTemplates(ctx: ServiceContext, f: TemplateFilter, scope: ListScope): Promise<Template[]> {
  return templateViews(ctx.db, await repo.listTemplateRows(ctx.db, f, scope))
}

export function getTemplate(ctx: ServiceContext, id: number): Promise<Template> {
  return templateView(ctx.db, id)
}

/** The draft if there is one, else the latest published version. */
export async function getLayout(ctx: ServiceContext, id: number): Promise<TemplateVersion> {
  await load(ctx.db, id)
  const current = currentOf(await repo.versionsOf(ctx.db, [id]))
  // Every template is created with version 1, and versions are deleted only with it.
  if (!current) throw notFound(id)
  return versionView(ctx.db, current)
}

export async function listVersions(ctx: ServiceContext, id: number): Promise<VersionInfo[]> {
  await load(ctx.db, id)
  return (await repo.versionsOf(ctx.db, [id])).map(versionInfo)
}

/** Any version, published or draft: what data saved against an older version is read with. */
export async function getVersion(ctx: ServiceContext, id: number, version: number): Promise<TemplateVersion> {
  await load(ctx.db, id)
  if (!storable(version)) throw new ServiceError('notFound', 'template.versionNotFound', [version])
  return versionView(ctx.db, await mustFindVersion(ctx.db, id, version))
}

/** SPEC §7 checkHas…GenerateToDb: `version` is the latest published version, null before the first. */
export async function generateStateOf(ctx: ServiceContext, id: number, kind: TemplateKind): Promise<GenerateState> {
  expectKind(await load(ctx.db, id), kind)
  const s = await stateOf(ctx.db, id)
  return { generated: s.published !== undefined, pending: s.pending, version: s.published?.version ?? null }
}

// ---------------------------------------------------------------------------------------------
// Writes: each one transaction with its audit row; a refusal throws and so rolls all of it back.

export async function createTemplate(ctx: ServiceContext, actor: Actor, kind: TemplateKind, input: TemplateInput): Promise<Template> {
  const now = ctx.now().toISOString()
  return ctx.db.transaction().execute(async (trx) => {
    if (kind === 'crf' && input.preposeIds.length > 0) await repo.lockAllCrfs(trx)
    await assertNameFree(trx, kind, input.name)
    const preposeIds = await checkPreposes(trx, kind, undefined, input.preposeIds)
    const id = await repo.insertTemplate(trx, {
      kind,
      name: input.name,
      description: input.description,
      collect_type: input.collectType,
      status: input.status,
      created_at: now,
      updated_at: now,
    })
    await repo.insertVersion(trx, { template_id: id, version: 1, state: 'draft', sections: '[]', created_at: now, published_at: null })
    await repo.replacePreposes(trx, id, preposeIds)
    await audit(trx, actor, 'template.create', 'ok', ctx.now(), { id, kind, name: input.name, version: 1 }, { type: kind, id })
    return templateView(trx, id)
  })
}

/** Replaces name, description, collect type, prepose CRFs and status; the kind never changes. */
export async function updateTemplate(ctx: ServiceContext, actor: Actor, id: number, input: TemplateInput): Promise<Template> {
  const now = ctx.now().toISOString()
  return ctx.db.transaction().execute(async (trx) => {
    // The kind is fixed at creation, so reading it before the locks is safe; the all-CRF lock
    // must come first (see repo.lockAllCrfs).
    if (kindOf(await load(trx, id)) === 'crf' && input.preposeIds.length > 0) await repo.lockAllCrfs(trx)
    const [before] = await templateViews(trx, [await loadLocked(trx, id)])
    if (!before) throw notFound(id)
    await assertNameFree(trx, before.kind, input.name, id)
    const preposeIds = await checkPreposes(trx, before.kind, id, input.preposeIds)
    await repo.updateTemplateRow(trx, id, {
      name: input.name,
      description: input.description,
      collect_type: input.collectType,
      status: input.status,
      updated_at: now,
    })
    await repo.replacePreposes(trx, id, preposeIds)
    const after = await templateView(trx, id)
    const fields = ['name', 'description', 'collectType', 'status', 'preposeIds'] as const
    const changed = fields.filter((f) => JSON.stringify(before[f]) !== JSON.stringify(after[f]))
    await audit(trx, actor, 'template.update', 'ok', ctx.now(), { id, kind: before.kind, changed }, { type: before.kind, id })
    return after
  })
}

/**
 * SPEC §8: refused ('prohibit delete', 409) once a version is published, since data is entered
 * against it, and while any draft places an indicator.
 */
export async function deleteTemplate(ctx: ServiceContext, actor: Actor, id: number): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    const t = await loadLocked(trx, id)
    const kind = kindOf(t)
    if (await repo.templateHasPublished(trx, id)) throw new ServiceError('conflict', 'template.publishedNoDelete')
    if (await repo.templateHasItems(trx, id)) {
      throw new ServiceError('conflict', kind === 'crf' ? 'template.crfHasIndicators' : 'template.groupHasIndicators')
    }
    const versions = await repo.versionsOf(trx, [id])
    // CRFs that named this one as a prepose lose that edge; the audit row says which.
    const preposeOf = await repo.dependentsOf(trx, id)
    await repo.deleteTemplateRows(trx, id)
    await audit(
      trx,
      actor,
      'template.delete',
      'ok',
      ctx.now(),
      { id, kind, name: t.name, versions: versions.length, preposeOf },
      { type: kind, id },
    )
  })
}

/**
 * Writes the layout into the draft. With no draft (the newest version is published) a new draft
 * version newest + 1 is created holding just this layout; the published one is left untouched.
 * Saving the published layout unchanged creates no version, since it would publish nothing.
 */
export async function saveLayout(ctx: ServiceContext, actor: Actor, id: number, input: Layout): Promise<TemplateVersion> {
  const layout = canon(input)
  checkSections(layout)
  const now = ctx.now().toISOString()
  return ctx.db.transaction().execute(async (trx) => {
    const t = await loadLocked(trx, id)
    const kind = kindOf(t)
    await checkItems(trx, layout)
    const vs = await repo.versionsOf(trx, [id])
    const sections = JSON.stringify(layout.sections.map((s) => ({ key: s.key, title: s.title, repeating: s.repeating })))
    const items = layout.sections.flatMap((s) =>
      s.items.map((i, position) => ({ section_key: s.key, position, indicator_id: i.indicatorId, required: i.required ? 1 : 0 })),
    )
    let draft = draftOf(vs)
    const created = draft === undefined
    if (!draft) {
      const published = publishedOf(vs)
      if (published && sameLayout(layout, layoutOf(published, await repo.itemsOf(trx, [published.id])))) {
        await audit(
          trx,
          actor,
          'template.layout',
          'ok',
          ctx.now(),
          { id, kind, version: published.version, changed: false },
          { type: kind, id },
        )
        return versionView(trx, published)
      }
      const version = (vs.at(-1)?.version ?? 0) + 1
      await repo.insertVersion(trx, { template_id: id, version, state: 'draft', sections, created_at: now, published_at: null })
      draft = await mustFindVersion(trx, id, version)
    } else {
      await repo.setVersionSections(trx, draft.id, sections)
    }
    const draftId = draft.id
    await repo.clearItems(trx, draftId)
    await inChunks(items, async (part) => {
      await repo.insertItems(trx, draftId, part)
      return []
    })
    await repo.touchTemplate(trx, id, now)
    await audit(
      trx,
      actor,
      'template.layout',
      'ok',
      ctx.now(),
      { id, kind, version: draft.version, created, items: items.length },
      { type: kind, id },
    )
    return versionView(trx, await mustFindVersion(trx, id, draft.version))
  })
}

/**
 * SPEC §7 save…GenerateToDb: the draft becomes the published version, with a snapshot of every
 * field definition it places, never written again. When only the dictionary changed under an
 * unchanged layout, a new version of that layout is published with the new definitions.
 */
export async function publishTemplate(ctx: ServiceContext, actor: Actor, id: number, kind: TemplateKind): Promise<GenerateState> {
  const now = ctx.now().toISOString()
  return ctx.db.transaction().execute(async (trx) => {
    expectKind(await loadLocked(trx, id), kind)
    const s = await stateOf(trx, id)
    if (!s.pending)
      throw new ServiceError(
        'conflict',
        s.published === undefined && s.empty ? 'template.emptyNeverPublished' : 'template.nothingToPublish',
      )
    let target = s.draft
    if (!target) {
      // Pending without a draft means a published version exists whose fields changed since.
      const from = s.published
      if (!from) throw new ServiceError('conflict', 'template.nothingToPublish')
      const version = s.newest + 1
      const vid = await repo.insertVersion(trx, {
        template_id: id,
        version,
        state: 'draft',
        sections: from.sections,
        created_at: now,
        published_at: null,
      })
      await repo.copyItems(trx, from.id, vid)
      target = await mustFindVersion(trx, id, version)
    }
    const view = await versionView(trx, target)
    // The version being published holds every one of its fields from now on.
    const snapshot: Snapshot = { layout: view.layout, fields: view.indicators.map((f) => ({ ...f, inUse: true })) }
    // The row lock makes this the only publisher; false would mean the invariant broke.
    if (!(await repo.publishVersion(trx, target.id, now, JSON.stringify(snapshot))))
      throw new ServiceError('conflict', 'template.nothingToPublish')
    await repo.touchTemplate(trx, id, now)
    await audit(
      trx,
      actor,
      'template.publish',
      'ok',
      ctx.now(),
      { id, kind, version: target.version, fields: snapshot.fields.length },
      { type: kind, id },
    )
    return { generated: true, pending: false, version: target.version }
  })
}
