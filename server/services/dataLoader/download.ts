import crypto from 'node:crypto'
import { once } from 'node:events'
import fs from 'node:fs'
import { PassThrough, Readable } from 'node:stream'
import ExcelJS from 'exceljs'
import { dataLoadLimits, type DownloadQuery } from '../../../contract/dataLoader.ts'
import * as repo from '../../db/repositories/dataLoadExport.ts'
import { message, type Lang } from '../../i18n/messages.ts'
import type { Actor } from '../actor.ts'
import type { Actor as AuditActor } from '../audit.ts'
import type { ServiceContext } from '../context.ts'
import { csvLine, utf8Bom } from '../dictionaryExchange/csv.ts'
import { ServiceError } from '../errors.ts'
import { formulaSafe } from '../export/formulaSafe.ts'
import { projectScope, seesGroups } from '../policy.ts'
import { sheetCsv, sheetRows, type ExportPlan } from './exportRows.ts'
import { loadForms } from './forms.ts'
import { isIdentifier, mayDownloadIdentifiers } from './identifiers.ts'
import { columnLabel, layoutHeader, layoutSheet, sheetsOf, type SheetLayout } from './layout.ts'
import { keepFile, tmpPath } from './loadFiles.ts'
import { odmChunks } from './odm.ts'

/**
 * downloadData (issue 11 item 4): a project's entered data in our sheet layout (xlsx, CSV) or as
 * CDISC ODM 1.3.2, streamed as it is read from the database.
 *
 * Only what the caller may see: subjects within the caller's queues and centers (inside the SQL);
 * a center or queue asked for outside them is refused by name rather than answered with an empty
 * file, so nobody mistakes "not allowed" for "no data". Identifier fields are left out without
 * the project authority 'identifiers', and naming one is refused.
 *
 * xlsx: a sheet per layout sheet (codes, labels, data) and the hidden `_layout` sheet, so the
 * file loads again as it is. Main sheets carry each subject's randomization group (rand_group) for
 * those who see groups. CSV: one table — one CRF's main sheet, no label row (the layout
 * allows a CSV without one); a choice that makes more than one table is refused naming them
 * (xlsx and ODM hold them all). Text that a spreadsheet would run is neutralised in both.
 *
 * Every byte sent is also written to a temporary file and hashed; when the stream has ended the
 * file is kept under its hash and the download recorded (data_download). A client that goes away
 * leaves no record and no file.
 */

export type DownloadInput = DownloadQuery & { lang: Lang }

export interface StartedDownload {
  fileName: string
  contentType: string
  body: Readable
}

const contentTypes = {
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  csv: 'text/csv; charset=utf-8',
  odm: 'application/xml; charset=utf-8',
} as const
const extensions = { xlsx: 'xlsx', csv: 'csv', odm: 'xml' } as const

/** What is asked for, checked against the project and the caller's grants before a byte is sent. */
async function planDownload(ctx: ServiceContext, actor: Actor, q: DownloadInput): Promise<ExportPlan> {
  const projectId = q.studyId
  if (q.templateIds.length === 0) throw new ServiceError('badRequest', 'dataLoad.noTemplates')
  if (q.templateIds.length > dataLoadLimits.maxForms)
    throw new ServiceError('badRequest', 'dataLoad.download.tooManyForms', [dataLoadLimits.maxForms])
  const forms = await loadForms(ctx, projectId, [...new Set(q.templateIds)])
  const scope = projectScope(actor, 'dataLoad.download', projectId)
  const { centers, queues } = await repo.projectCentersAndQueues(ctx.db, projectId)
  const visits = await repo.projectVisits(ctx.db, projectId)
  const allowed = (ids: readonly number[] | null, id: number) => scope.kind === 'project' && (ids === null || ids.includes(id))
  // A center or queue outside the caller's is answered as one the project lacks: its code is not theirs to learn.
  for (const id of q.centerIds ?? [])
    if (!centers.some((x) => x.id === id) || !allowed(scope.kind === 'project' ? scope.centerIds : [], id))
      throw new ServiceError('badRequest', 'dataLoad.download.unknownCenter', [id])
  for (const id of q.queueIds ?? [])
    if (!queues.some((v) => v.id === id) || !allowed(scope.kind === 'project' ? scope.queueIds : [], id))
      throw new ServiceError('badRequest', 'dataLoad.download.unknownQueue', [id])
  for (const id of q.visitIds ?? [])
    if (!visits.some((v) => v.id === id)) throw new ServiceError('badRequest', 'dataLoad.download.unknownVisit', [id])

  const identifiers = mayDownloadIdentifiers(actor, projectId)
  const fields = new Map(forms.flatMap((f) => f.version.indicators.map((i) => [i.id, i])))
  for (const id of q.fieldIds ?? []) {
    const field = fields.get(id)
    if (!field) throw new ServiceError('badRequest', 'dataLoad.download.unknownField', [id])
    if (!identifiers && isIdentifier(field)) throw new ServiceError('forbidden', 'dataLoad.download.identifierDenied', [field.code])
  }
  const wanted = q.fieldIds ? new Set(q.fieldIds) : null
  // Those who see groups get each subject's, so an analysis needs no second file; blinded members get no column.
  const groups = seesGroups(actor, projectId) ? await repo.projectGroups(ctx.db, projectId) : []
  const sheets = sheetsOf(forms, { groups: groups.length > 0 })
    .map((s) => ({
      ...s,
      columns: s.columns.filter((c) => !c.field || ((!wanted || wanted.has(c.field.id)) && (identifiers || !isIdentifier(c.field)))),
    }))
    // A sheet left without a field says nothing; a main sheet stays when nothing was narrowed.
    .filter((s) => s.columns.some((c) => c.kind === 'field') || (!wanted && s.section === ''))
  return {
    projectId,
    forms,
    sheets,
    filter: { scope, centerIds: q.centerIds, queueIds: q.queueIds },
    // Visits narrow visit CRFs alone: asked of CRFs without visits they narrow nothing, and the record must not say they did.
    visitIds: forms.some((f) => f.mode === 'visit') ? q.visitIds : undefined,
    visitNames: new Map(visits.map((v) => [v.id, v.name])),
    centerCodes: await repo.centerCodes(ctx.db),
    queueKeys: new Map(queues.map((x) => [x.id, x.key])),
    groups: new Map(groups.map((g) => [g.id, { code: g.code, name: g.name }])),
  }
}

interface Counter {
  rows: number
}

/** The stream between a sheet and exceljs' zip (exceljs 4.4, pinned; readable-stream 2 inside). */
interface ZipInput {
  _writableState?: { needDrain: boolean }
  once(event: 'drain', listener: () => void): unknown
}

/**
 * Waits while the zip or the reader of `out` lags, so rows are read from the database no faster
 * than they are compressed and sent: exceljs hands committed rows to its zip without waiting, and
 * they would pile up in memory while deflate catches up.
 */
async function drained(ws: ExcelJS.Worksheet, out: PassThrough, closed: Promise<unknown>): Promise<void> {
  for (const p of (ws as unknown as { stream?: { pipes?: ZipInput[] } }).stream?.pipes ?? []) {
    if (p._writableState?.needDrain && !out.destroyed)
      await Promise.race([new Promise<void>((resolve) => p.once('drain', resolve)), closed])
  }
  if (out.writableNeedDrain) await once(out, 'drain')
}

/** The workbook: data sheets one after another (a pass each), then the hidden `_layout` sheet. */
function xlsxBody(ctx: ServiceContext, plan: ExportPlan, lang: Lang, counter: Counter): Readable {
  const out = new PassThrough()
  const closed = once(out, 'close').catch(() => undefined)
  const write = async () => {
    const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: false, useSharedStrings: false })
    for (const sheet of plan.sheets) {
      const ws = wb.addWorksheet(sheet.name, { views: [{ state: 'frozen', ySplit: 2 }] })
      ws.addRow(sheet.columns.map((c) => c.key)).commit()
      ws.addRow(sheet.columns.map((c) => formulaSafe(columnLabel(c, lang)))).commit()
      for await (const batch of sheetRows(ctx, plan, sheet)) {
        if (out.destroyed) return
        for (const r of batch) ws.addRow(r).commit()
        counter.rows += batch.length
        await drained(ws, out, closed)
      }
      ws.commit()
    }
    const layout = wb.addWorksheet(layoutSheet, { state: 'hidden' })
    layout.addRow([...layoutHeader]).commit()
    for (const s of plan.sheets) layout.addRow([s.name, s.templateId, s.versionId, s.section]).commit()
    layout.commit()
    await wb.commit()
  }
  write().catch((err: unknown) => out.destroy(err instanceof Error ? err : new Error(String(err))))
  return out
}

/** One table: UTF-8 with a BOM (Excel reads it as UTF-8), the codes line, the data lines. */
async function* csvBody(ctx: ServiceContext, plan: ExportPlan, sheet: SheetLayout, counter: Counter): AsyncGenerator<string> {
  yield utf8Bom + csvLine(sheet.columns.map((c) => c.key))
  yield* sheetCsv(ctx, plan, sheet, (n) => (counter.rows += n))
}

function csvSheet(plan: ExportPlan): SheetLayout {
  if (plan.sheets.length !== 1) {
    throw new ServiceError('badRequest', 'dataLoad.download.csvOneTable', [plan.sheets.length, plan.sheets.map((s) => s.name).join(', ')])
  }
  return plan.sheets[0]!
}

const stamp = (d: Date) => d.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15)

/**
 * The bytes of `source` as they come, also written to a temporary file and hashed; once all are
 * sent the file is kept under its hash and the download recorded. Stopped early (the client went
 * away, a read failed): the temporary file is removed and nothing is recorded.
 */
async function* recorded(
  ctx: ServiceContext,
  source: AsyncIterable<Buffer | string>,
  done: (size: number, sha256: string) => Promise<void>,
): AsyncGenerator<Buffer> {
  const tmp = await tmpPath(ctx, 'download')
  // A page or more may wait for the disk (0.2–1 MB each), so writing one overlaps reading the
  // next; with the default 16 kB every page waited for its own write. More held Buffers long
  // enough to reach the old generation, and the peak RSS grew with the file.
  const file = fs.createWriteStream(tmp, { highWaterMark: 1024 * 1024 })
  const hash = crypto.createHash('sha256')
  let size = 0
  let finished = false
  try {
    for await (const part of source) {
      const chunk = typeof part === 'string' ? Buffer.from(part, 'utf8') : part
      if (chunk.length === 0) continue
      hash.update(chunk)
      size += chunk.length
      if (!file.write(chunk)) await once(file, 'drain')
      yield chunk
    }
    file.end()
    await once(file, 'close')
    const sha256 = hash.digest('hex')
    await keepFile(ctx, tmp, sha256)
    finished = true
    await done(size, sha256)
  } finally {
    if (!finished) {
      // The stream opens its file lazily: removing it before the close would let the open create it again.
      const closed = file.closed ? Promise.resolve() : once(file, 'close').catch(() => undefined)
      file.destroy()
      await closed
      await fs.promises.rm(tmp, { force: true })
    }
  }
}

/** The ids a download could hold: those asked for (checked within the caller's), else the caller's own; null: every one. */
function heldIds(f: repo.SubjectFilter, key: 'centerIds' | 'queueIds'): string | null {
  const asked = f[key]
  const mine = f.scope.kind === 'project' ? f.scope[key] : []
  return asked?.length ? JSON.stringify(asked) : mine === null ? null : JSON.stringify(mine)
}

export async function startDownload(ctx: ServiceContext, actor: Actor, who: AuditActor, q: DownloadInput): Promise<StartedDownload> {
  const started = Date.now()
  const plan = await planDownload(ctx, actor, q)
  const project = await repo.projectHead(ctx.db, q.studyId)
  if (!project) throw new ServiceError('notFound', 'project.notFound', [q.studyId])
  const now = ctx.now()
  // Letters of any script stay (the header sends the name as RFC 5987 filename*); path and shell signs do not.
  const fileName = `${project.number.replace(/[^\p{L}\p{N}_.-]/gu, '_') || `project-${project.id}`}-data-${stamp(now)}.${extensions[q.format]}`
  const counter: Counter = { rows: 0 }
  let source: AsyncIterable<Buffer | string>
  if (q.format === 'csv') source = csvBody(ctx, plan, csvSheet(plan), counter)
  else if (q.format === 'xlsx') source = xlsxBody(ctx, plan, q.lang, counter)
  else {
    const visitForms = new Map<number, number[]>()
    for (const vf of await repo.projectVisitForms(ctx.db, q.studyId))
      visitForms.set(vf.visit_id, [...(visitForms.get(vf.visit_id) ?? []), vf.template_id])
    const study = {
      oid: `ST.${project.number || project.id}`,
      name: project.name,
      protocol: project.number,
      lang: q.lang,
      subjectEventName: message(q.lang, 'dataLoad.odm.subjectEvent'),
      randomizationName: message(q.lang, 'dataLoad.odm.randomization'),
      fileOid: `F.${project.id}.${stamp(now)}`,
      createdAt: now.toISOString(),
    }
    source = odmChunks(ctx, plan, study, visitForms, (n) => (counter.rows += n))
  }
  const scope = {
    templateIds: q.templateIds,
    fieldIds: q.fieldIds ?? null,
    queueIds: q.queueIds ?? null,
    centerIds: q.centerIds ?? null,
    visitIds: plan.visitIds ?? null,
    lang: q.lang,
  }
  const body = Readable.from(
    recorded(ctx, source, async (size, sha256) => {
      await repo.insertDownload(ctx.db, {
        project_id: q.studyId,
        user_id: who.userId,
        username: who.username,
        at: now.toISOString(),
        file_name: fileName,
        format: q.format,
        scope: JSON.stringify(scope),
        size,
        sha256,
        rows: counter.rows,
        duration_ms: Date.now() - started,
        // What only some may see, so a fetch of the kept file again asks for it still (records.ts).
        holds_groups: plan.groups.size > 0 ? 1 : 0,
        holds_identifiers: plan.sheets.some((x) => x.columns.some((c) => c.field && isIdentifier(c.field))) ? 1 : 0,
        held_center_ids: heldIds(plan.filter, 'centerIds'),
        held_queue_ids: heldIds(plan.filter, 'queueIds'),
      })
    }),
    // One chunk (a page of rows) at a time: nothing is read ahead of what the client takes.
    { objectMode: false, highWaterMark: 1 },
  )
  return { fileName, contentType: contentTypes[q.format], body }
}
