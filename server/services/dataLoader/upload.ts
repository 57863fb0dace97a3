import {
  dataLoaderPaths,
  dataLoadLimits,
  keyColumns,
  type DuplicateUpload,
  type UploadQuery,
  type UploadResult,
} from '../../../contract/dataLoader.ts'
import type { Lang } from '../../../contract/formValues.ts'
import * as repo from '../../db/repositories/dataLoadWrite.ts'
import { bulkTarget } from '../../db/repositories/dataLoadWrite.ts'
import { message, type MessageKey } from '../../i18n/messages.ts'
import type { Actor } from '../actor.ts'
import type { Actor as AuditActor } from '../audit.ts'
import type { ServiceContext } from '../context.ts'
import { ServiceError } from '../errors.ts'
import { membershipOf, projectScope } from '../policy.ts'
import { RowChecker, type ProjectFacts } from './checkRows.ts'
import { writeErrorReport } from './errorReport.ts'
import { loadForms } from './forms.ts'
import { keepFile } from './loadFiles.ts'
import { layoutHeader, layoutSheet, sheetsOf, type SheetLayout } from './layout.ts'
import type { ReceivedFile } from './model.ts'
import { readUpload } from './readUpload.ts'
import { redcapVisits, uploadSheets } from './redcapRecords.ts'
import { visibility } from './records.ts'
import { PlanWriter } from './writeRows.ts'

/**
 * uploadFile (issue 11 item 2): a received file checked and written all or nothing.
 *
 * One transaction spans the whole read: each batch the reader hands over (parsed in its worker
 * thread meanwhile) is checked and, while no cell has been refused, written at once, so the
 * writes overlap the parse and the plan never has to be held whole. After a refused cell only
 * the checking goes on, to name every bad cell; the end then takes every write back. On SQLite
 * this holds the writer connection for the upload's length (other writes wait for it, as they wait
 * for any write); on PostgreSQL it holds one pooled connection.
 *
 * Every upload past the re-upload check is recorded once (data_upload) with its file kept under
 * its hash; a refusal by cells also keeps an xlsx report naming each bad cell.
 */

export interface UploadAnswer {
  loaded: boolean
  result: UploadResult
  /** The answer's message. */
  say: { key: MessageKey; params: (string | number)[] }
}

/**
 * A file of the same content loaded into the project before: nothing is read until `again`. Who
 * loaded it, when and under what name is said only to one who may see that record (a member
 * limited to centers or queues sees only their own): the content is the caller's own, the record may not be.
 */
async function checkDuplicate(ctx: ServiceContext, actor: Actor, projectId: number, file: ReceivedFile): Promise<void> {
  const prior = await repo.loadedUploadOf(ctx.db, projectId, file.sha256)
  if (!prior) return
  const { userId } = visibility(actor, projectId, 'upload')
  if (userId !== null && prior.user_id !== userId) {
    const data: DuplicateUpload = {
      duplicateOf: { uploadId: 0, at: null, by: '', fileName: file.fileName, outcome: 'loaded' },
    }
    throw new ServiceError('conflict', 'dataLoad.duplicateOther', [], undefined, data)
  }
  const data: DuplicateUpload = {
    duplicateOf: { uploadId: prior.id, at: prior.at, by: prior.username, fileName: prior.file_name, outcome: 'loaded' },
  }
  throw new ServiceError(
    'conflict',
    'dataLoad.duplicate',
    [prior.file_name, prior.at.slice(0, 16).replace('T', ' '), prior.username],
    undefined,
    data,
  )
}

async function projectFacts(
  ctx: ServiceContext,
  actor: Actor,
  projectId: number,
  enrol: boolean,
  templateIds: readonly number[],
): Promise<ProjectFacts & { checklists: Map<number, { entry: string; exclude: string }> }> {
  const scope = projectScope(actor, 'dataLoad.upload', projectId)
  const queues = await repo.queuesOf(ctx.db, projectId)
  const enrolScope = enrol ? projectScope(actor, 'subject.enrol', projectId) : undefined
  const visits = new Map<string, Map<number, number>>()
  for (const v of await repo.visitFormsByName(ctx.db, projectId)) {
    const byForm = visits.get(v.name.trim()) ?? new Map<number, number>()
    byForm.set(v.template_id, v.id)
    visits.set(v.name.trim(), byForm)
  }
  const named = repo.subjectsNamed(ctx.db, projectId, scope)
  return {
    subjects: async (nos) =>
      (await named(nos)).map((s) => ({
        id: s.id,
        subjectNo: s.subject_no,
        centerId: s.center_id,
        queueId: s.queue_id,
        inScope: Number(s.in_scope) === 1,
        summaryEmpty: Number(s.summary_empty) === 1,
      })),
    centers: new Map((await repo.centersOf(ctx.db, projectId)).map((c) => [c.code.toLowerCase(), c.id])),
    queues: queueKeys(queues),
    checklists: new Map(queues.map((q) => [q.id, { entry: q.entry_condition, exclude: q.exclude_condition }])),
    enrolInto: enrolScope?.kind === 'project' ? { centerIds: enrolScope.centerIds, queueIds: enrolScope.queueIds } : undefined,
    visits,
    samples: new Map((await repo.samplesOf(ctx.db, projectId)).map((s) => [`${s.subject_id}|${s.sample_no.toLowerCase()}`, s.id])),
    mayEditSaved: actor.superuser || membershipOf(actor, projectId)?.authorities.has('editData') === true,
    records: repo.recordsOf(ctx.db, templateIds),
    rows: (recordIds) => repo.rowsOf(ctx.db, recordIds),
  }
}

/**
 * Queue ids by key, and by the key in lower case where no other queue's key reads the same: a
 * hand-typed 'a' is queue 'A' as a center's 'dbj' is center DBJ (queue keys are unique only as
 * written, so two that differ by case are each matched exactly).
 */
export function queueKeys(queues: readonly { key: string; id: number }[]): Map<string, number> {
  const byKey = new Map(queues.map((q) => [q.key, q.id]))
  const lower = new Map<string, number | null>()
  for (const q of queues) lower.set(q.key.toLowerCase(), lower.has(q.key.toLowerCase()) ? null : q.id)
  for (const [key, id] of lower) if (id !== null && !byKey.has(key)) byKey.set(key, id)
  return byKey
}

/**
 * Which layout a sheet is: by the workbook's `_layout` sheet, else by its name. A CSV is one table
 * of the chosen CRF: its main sheet, or the sub form whose key and field columns its header names
 * (a sub form's CSV download, loaded again).
 */
function sheetResolver(layouts: readonly SheetLayout[], templateId: number | undefined) {
  const named = new Map<string, { templateId: number; section: string }>()
  let csvSection = ''
  return {
    /** The CSV's table by its header: a sub form when it has the row column and every code is that sub form's. */
    csvHeader(header: readonly string[]) {
      const codes = header.map((c) => c.trim()).filter((c) => c !== '')
      if (!codes.includes(keyColumns.row)) return
      const sub = layouts.find(
        (l) => l.templateId === templateId && l.section !== '' && codes.every((c) => l.columns.some((col) => col.key === c)),
      )
      if (sub) csvSection = sub.section
    },
    addLayoutRows(rows: readonly { cells: string[] }[], cols: { sheet: number; templateId: number; section: number }) {
      for (const r of rows) {
        const id = Number(r.cells[cols.templateId])
        if (Number.isInteger(id))
          named.set((r.cells[cols.sheet] ?? '').trim(), { templateId: id, section: (r.cells[cols.section] ?? '').trim() })
      }
    },
    layoutOf(raw: string): SheetLayout | undefined {
      // A workbook made before sheet names cut short lost their last space may still end in one.
      const sheet = raw.trim() || raw
      if (sheet === '')
        return templateId === undefined ? undefined : layouts.find((l) => l.templateId === templateId && l.section === csvSection)
      const n = named.get(sheet)
      if (n) return layouts.find((l) => l.templateId === n.templateId && l.section === n.section)
      return layouts.find((l) => l.name === sheet)
    },
  }
}

export async function uploadData(
  ctx: ServiceContext,
  actor: Actor,
  who: AuditActor,
  lang: Lang,
  q: UploadQuery,
  file: ReceivedFile,
): Promise<UploadAnswer> {
  const projectId = q.studyId
  if (!q.again) await checkDuplicate(ctx, actor, projectId, file)
  const started = performance.now()
  const at = ctx.now().toISOString()
  const say = (key: MessageKey, params: readonly (string | number)[] = []) => message(lang, key, params)
  /** A record's message: the text in the uploader's language, and its key for readers of the other. */
  const recorded = (key: MessageKey, params: readonly (string | number)[] = []) => ({
    message: say(key, params),
    message_key: key,
    message_params: JSON.stringify(params),
  })
  const base = {
    user_id: who.userId,
    username: who.username,
    at,
    file_name: file.fileName,
    size: file.size,
    sha256: file.sha256,
    container: file.container,
    format: q.format,
  }
  const elapsed = () => Math.round(performance.now() - started)
  let kept = false
  const keep = async () => {
    if (!kept) await keepFile(ctx, file.path, file.sha256)
    kept = true
  }
  const refuse = async (
    why: { key: MessageKey; params: readonly (string | number)[] },
    extra: { rows?: number; errors_total?: number; report_sha256?: string; template_ids?: string } = {},
  ) => {
    await keep()
    const row = { ...base, project_id: projectId, outcome: 'refused', ...recorded(why.key, why.params), duration_ms: elapsed(), ...extra }
    return repo.insertUpload(ctx.db, row)
  }

  const refusedByCells = new ServiceError('badRequest', 'dataLoad.refused')
  let checker: RowChecker | undefined
  let uploadId: number
  try {
    uploadId = await ctx.db.transaction().execute(async (tx) => {
      // Everything inside reads through the transaction: on SQLite it holds the writer.
      const tctx: ServiceContext = { ...ctx, db: tx }
      if ((await repo.projectStatus(tx, projectId))?.status !== 'active') throw new ServiceError('conflict', 'subject.projectClosed')
      const forms = await loadForms(tctx, projectId, q.templateId === undefined || q.format === 'redcap' ? undefined : [q.templateId])
      // A download's rand_group column is read past: an allocation is never changed, least of all by a file.
      const resolver = sheetResolver(sheetsOf(forms, { groups: true }), q.templateId)
      const facts = await projectFacts(tctx, actor, projectId, q.enrol, [...new Set(forms.map((f) => f.templateId))])
      const rows = new RowChecker(lang, facts, (s) => resolver.layoutOf(s), forms, q.format === 'redcap')
      checker = rows
      const writer = new PlanWriter(bulkTarget(ctx.db, tx), {
        now: ctx.now(),
        actor,
        who,
        projectId,
        upload: { ...base, outcome: 'loaded' },
        checklists: facts.checklists,
        reason: say('dataLoad.reason', [file.fileName]),
      })
      const id = await writer.start()
      let layoutCols: { sheet: number; templateId: number; section: number } | undefined
      const sheets = uploadSheets(forms, await redcapVisits(tctx, projectId), readUpload(file), {
        format: q.format,
        lang,
        ...(q.events ? { events: q.events } : {}),
        problem: (e) => rows.add(e),
      })
      for await (const batch of sheets) {
        if (batch.sheet === '' && batch.header && q.templateId === undefined) throw new ServiceError('badRequest', 'dataLoad.needsForm')
        if (batch.sheet === layoutSheet) {
          if (batch.header) {
            const h = batch.header.map((c) => c.trim())
            const [sheet, templateId, , section] = layoutHeader.map((k) => h.indexOf(k))
            layoutCols =
              sheet! >= 0 && templateId! >= 0 && section! >= 0 ? { sheet: sheet!, templateId: templateId!, section: section! } : undefined
          }
          if (layoutCols) resolver.addLayoutRows(batch.rows, layoutCols)
          continue
        }
        if (batch.header && batch.sheet === '') resolver.csvHeader(batch.header)
        if (batch.header) rows.bind(batch.sheet, batch.header)
        await rows.check(batch.sheet, batch.rows, batch.origin)
        // Written as checked, so the writes overlap the parse; after a bad cell only checking goes on.
        const plan = rows.takePlan()
        if (rows.errorsTotal === 0) await writer.write(plan)
      }
      if (rows.rows === 0 && rows.errorsTotal === 0) throw new ServiceError('badRequest', 'dataLoad.noRows')
      if (rows.errorsTotal > 0) throw refusedByCells
      const counts = countsOf(rows)
      await writer.finish({
        rows: rows.rows,
        ...counts,
        enrolled: rows.newSubjects.size,
        template_ids: formsOf(rows),
        ...recorded('dataLoad.loaded', [counts.created, counts.updated, counts.unchanged, rows.newSubjects.size]),
        duration_ms: elapsed(),
      })
      // Kept before the commit: a process ended right after it still leaves the record's file.
      await keep()
      return id
    })
  } catch (err) {
    if (err === refusedByCells && checker) return refusedCells(checker)
    if (err instanceof ServiceError) await refuse(err, checker ? { rows: checker.rows, template_ids: formsOf(checker) } : {})
    throw err
  }
  const loaded = checker!
  const counts = countsOf(loaded)
  const params = [counts.created, counts.updated, counts.unchanged, loaded.newSubjects.size]
  return { loaded: true, result: result(loaded, uploadId, 'loaded', null), say: { key: 'dataLoad.loaded', params } }

  /** Every bad cell: the refusal recorded with its xlsx report, the first ones answered. */
  async function refusedCells(c: RowChecker): Promise<UploadAnswer> {
    const report = await writeErrorReport(ctx, lang, c.errors)
    // The report holds the first maxReportErrors: past them it says so rather than "each one".
    const capped = c.errorsTotal > c.errors.length
    const key: MessageKey = capped ? 'dataLoad.refusedCapped' : 'dataLoad.refused'
    const params = capped ? [c.errorsTotal, c.errors.length] : [c.errorsTotal]
    const id = await refuse({ key, params }, { rows: c.rows, errors_total: c.errorsTotal, report_sha256: report, template_ids: formsOf(c) })
    return { loaded: false, result: result(c, id, 'refused', dataLoaderPaths.uploadReport(id)), say: { key, params } }
  }

  function result(c: RowChecker, id: number, outcome: 'loaded' | 'refused', reportUrl: string | null): UploadResult {
    return {
      uploadId: id,
      outcome,
      rows: c.rows,
      ...(outcome === 'loaded' ? { ...countsOf(c), enrolled: c.newSubjects.size } : { created: 0, updated: 0, unchanged: 0, enrolled: 0 }),
      errors: c.errors.slice(0, dataLoadLimits.maxReported),
      errorsTotal: c.errorsTotal,
      reportUrl,
    }
  }
}

/** The CRFs a file's sheets were read into, as the record keeps them. */
const formsOf = (c: RowChecker) => [...c.templateIds].join(',')

/** New, changed and unchanged instances and sub-form rows of a checked file. */
function countsOf(c: RowChecker): { created: number; updated: number; unchanged: number } {
  const counts = { ...c.tally }
  for (const r of c.records.values()) {
    if (!r.stored) counts.created++
    else if (r.changes.length > 0) counts.updated++
    else counts.unchanged++
    for (const p of r.rows.values()) {
      if (!p.stored) counts.created++
      else if (p.changes.length > 0) counts.updated++
      else counts.unchanged++
    }
  }
  return counts
}
