import { dataLoaderPaths, dataLoadLimits, type DuplicateUpload, type UploadQuery, type UploadResult } from '../../../contract/dataLoader.ts'
import type { Lang } from '../../../contract/formValues.ts'
import * as repo from '../../db/repositories/dataLoadWrite.ts'
import { message, type MessageKey } from '../../i18n/messages.ts'
import type { Actor } from '../actor.ts'
import type { Actor as AuditActor } from '../audit.ts'
import type { ServiceContext } from '../context.ts'
import { ServiceError } from '../errors.ts'
import { membershipOf, projectScope } from '../policy.ts'
import { RowChecker, type KnownSubject, type ProjectFacts } from './checkRows.ts'
import { writeErrorReport } from './errorReport.ts'
import { loadForms } from './forms.ts'
import { keepFile } from './loadFiles.ts'
import { layoutHeader, layoutSheet, sheetsOf, type SheetLayout } from './layout.ts'
import type { ReceivedFile } from './model.ts'
import { readUpload } from './readUpload.ts'
import { redcapVisits, uploadSheets } from './redcapRecords.ts'
import { writePlan } from './writeRows.ts'

/**
 * uploadFile (issue 11 item 2): a received file checked whole, then written all or nothing.
 *
 * The check runs while the reader parses (batches arrive as they are read) and only reads the
 * database; the writes follow in one short transaction. Checking inside the transaction would
 * hold SQLite's one connection for the whole parse and block every other call meanwhile; what
 * changed between the check and the write is caught by the rev each update names, and refuses
 * the upload whole (dataLoad.changedMeanwhile).
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

/** A file of the same content loaded into the project before: nothing is read until `again`. */
async function checkDuplicate(ctx: ServiceContext, projectId: number, file: ReceivedFile): Promise<void> {
  const prior = await repo.loadedUploadOf(ctx.db, projectId, file.sha256)
  if (!prior) return
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
): Promise<ProjectFacts & { checklists: Map<number, { entry: string; exclude: string }> }> {
  const scope = projectScope(actor, 'dataLoad.upload', projectId)
  const subjects = new Map<string, KnownSubject>()
  for (const s of await repo.subjectsOf(ctx.db, projectId, scope)) {
    subjects.set(s.subject_no, { id: s.id, subjectNo: s.subject_no, centerId: s.center_id, queueId: s.queue_id, inScope: s.inScope })
  }
  const queues = await repo.queuesOf(ctx.db, projectId)
  const enrolScope = enrol ? projectScope(actor, 'subject.enrol', projectId) : undefined
  const visits = new Map<string, Map<number, number>>()
  for (const v of await repo.visitFormsByName(ctx.db, projectId)) {
    const byForm = visits.get(v.name.trim()) ?? new Map<number, number>()
    byForm.set(v.template_id, v.id)
    visits.set(v.name.trim(), byForm)
  }
  return {
    subjects,
    centers: new Map((await repo.centersOf(ctx.db, projectId)).map((c) => [c.code, c.id])),
    queues: new Map(queues.map((q) => [q.key, q.id])),
    checklists: new Map(queues.map((q) => [q.id, { entry: q.entry_condition, exclude: q.exclude_condition }])),
    enrolInto: enrolScope?.kind === 'project' ? { centerIds: enrolScope.centerIds, queueIds: enrolScope.queueIds } : undefined,
    visits,
    samples: new Map((await repo.samplesOf(ctx.db, projectId)).map((s) => [`${s.subject_id}|${s.sample_no.toLowerCase()}`, s.id])),
    mayEditSaved: actor.superuser || membershipOf(actor, projectId)?.authorities.has('editData') === true,
    records: (subjectIds, templateIds) => repo.recordsOf(ctx.db, subjectIds, templateIds),
    rows: (recordIds) => repo.rowsOf(ctx.db, recordIds),
  }
}

/** Which layout a sheet is: by the workbook's `_layout` sheet, else by its name; a CSV is the chosen CRF's main sheet. */
function sheetResolver(layouts: readonly SheetLayout[], templateId: number | undefined) {
  const named = new Map<string, { templateId: number; section: string }>()
  return {
    addLayoutRows(rows: readonly { cells: string[] }[], cols: { sheet: number; templateId: number; section: number }) {
      for (const r of rows) {
        const id = Number(r.cells[cols.templateId])
        if (Number.isInteger(id))
          named.set((r.cells[cols.sheet] ?? '').trim(), { templateId: id, section: (r.cells[cols.section] ?? '').trim() })
      }
    },
    layoutOf(sheet: string): SheetLayout | undefined {
      if (sheet === '') return templateId === undefined ? undefined : layouts.find((l) => l.templateId === templateId && l.section === '')
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
  if (!q.again) await checkDuplicate(ctx, projectId, file)
  const started = performance.now()
  const at = ctx.now().toISOString()
  const say = (key: MessageKey, params: (string | number)[] = []) => message(lang, key, params)
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
  const refuse = async (msg: string, extra: { rows?: number; errors_total?: number; report_sha256?: string } = {}) => {
    await keepFile(ctx, file.path, file.sha256)
    return repo.insertUpload(ctx.db, { ...base, project_id: projectId, outcome: 'refused', message: msg, duration_ms: elapsed(), ...extra })
  }

  let checker: RowChecker
  let facts: Awaited<ReturnType<typeof projectFacts>>
  try {
    const project = await repo.projectStatus(ctx.db, projectId)
    if (project?.status !== 'active') throw new ServiceError('conflict', 'subject.projectClosed')
    // A REDCap record export names fields of several CRFs; a sheet of ours is one CRF's.
    const forms = await loadForms(ctx, projectId, q.templateId === undefined || q.format === 'redcap' ? undefined : [q.templateId])
    const resolver = sheetResolver(sheetsOf(forms), q.templateId)
    facts = await projectFacts(ctx, actor, projectId, q.enrol)
    checker = new RowChecker(lang, facts, (s) => resolver.layoutOf(s), forms)
    let layoutCols: { sheet: number; templateId: number; section: number } | undefined
    const sheets = uploadSheets(forms, await redcapVisits(ctx, projectId), readUpload(file), {
      format: q.format,
      lang,
      ...(q.events ? { events: q.events } : {}),
      problem: (e) => checker.add(e),
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
      if (batch.header) checker.bind(batch.sheet, batch.header)
      await checker.check(batch.sheet, batch.rows)
    }
    if (checker.rows === 0 && checker.errorsTotal === 0) throw new ServiceError('badRequest', 'dataLoad.noRows')
  } catch (err) {
    if (err instanceof ServiceError) await refuse(err.describe(lang))
    throw err
  }

  const records = [...checker.records.values()]
  const counts = { created: 0, updated: 0, unchanged: 0 }
  for (const r of records) {
    if (!r.stored) counts.created++
    else if (r.changes.length > 0) counts.updated++
    else counts.unchanged++
    for (const p of r.rows.values()) {
      if (!p.stored) counts.created++
      else if (p.changes.length > 0) counts.updated++
      else counts.unchanged++
    }
  }
  const enrolled = checker.newSubjects.size
  const result = (uploadId: number, outcome: 'loaded' | 'refused', reportUrl: string | null): UploadResult => ({
    uploadId,
    outcome,
    rows: checker.rows,
    ...(outcome === 'loaded' ? { ...counts, enrolled } : { created: 0, updated: 0, unchanged: 0, enrolled: 0 }),
    errors: checker.errors.slice(0, dataLoadLimits.maxReported),
    errorsTotal: checker.errorsTotal,
    reportUrl,
  })

  if (checker.errorsTotal > 0) {
    const report = await writeErrorReport(ctx, lang, checker.errors)
    const params = [checker.errorsTotal]
    const id = await refuse(say('dataLoad.refused', params), {
      rows: checker.rows,
      errors_total: checker.errorsTotal,
      report_sha256: report,
    })
    return { loaded: false, result: result(id, 'refused', dataLoaderPaths.uploadReport(id)), say: { key: 'dataLoad.refused', params } }
  }

  const params = [counts.created, counts.updated, counts.unchanged, enrolled]
  // Kept before the write: a process ended after the commit still leaves the record's file.
  await keepFile(ctx, file.path, file.sha256)
  let uploadId: number
  try {
    uploadId = await ctx.db.transaction().execute(async (tx) => {
      const id = await writePlan(repo.bulkTarget(ctx.db, tx), {
        now: ctx.now(),
        actor,
        who,
        projectId,
        upload: { ...base, outcome: 'loaded', rows: checker.rows, ...counts, enrolled, message: say('dataLoad.loaded', params) },
        records,
        newSubjects: [...checker.newSubjects.values()],
        checklists: facts.checklists,
        reason: say('dataLoad.reason', [file.fileName]),
      })
      await repo.setUploadDuration(tx, id, elapsed())
      return id
    })
  } catch (err) {
    if (err instanceof ServiceError) {
      await repo.insertUpload(ctx.db, {
        ...base,
        project_id: projectId,
        outcome: 'refused',
        message: err.describe(lang),
        rows: checker.rows,
        duration_ms: elapsed(),
      })
    }
    throw err
  }
  return { loaded: true, result: result(uploadId, 'loaded', null), say: { key: 'dataLoad.loaded', params } }
}
