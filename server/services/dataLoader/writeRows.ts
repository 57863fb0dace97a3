import type { Insertable } from 'kysely'
import { conditionLines } from '../../../contract/subjects.ts'
import type { FieldValue } from '../../../contract/formValues.ts'
import { toJson } from '../../db/json.ts'
import * as repo from '../../db/repositories/dataLoadWrite.ts'
import type { BulkTarget } from '../../db/repositories/dataLoadWrite.ts'
import type { DataUploadTable } from '../../db/tables/dataLoader.ts'
import type { DataAuditTable, FormRecordTable } from '../../db/tables/studyData.ts'
import type { Actor } from '../actor.ts'
import type { Actor as AuditActor } from '../audit.ts'
import { enrolWithin } from '../enrolment.ts'
import { ServiceError } from '../errors.ts'
import type { FieldChange, NewSubject, PlannedRecord } from './checkRows.ts'

/**
 * The writes of a checked upload, inside the one transaction the caller holds: the upload's
 * record first (its id goes on every new record and row and every audit row), the subjects it
 * enrols (by the enrolment rules, randomized when the plan says so), new records and rows in
 * multi-row statements, changed ones at their next rev with one audit row per changed field,
 * and the subjects' summaries as a save keeps them. A record saved by someone else since the
 * check, or a rule broken at enrolment, throws, and the transaction takes everything back.
 */

export interface WriteInput {
  now: Date
  actor: Actor
  who: AuditActor
  projectId: number
  upload: Omit<Insertable<DataUploadTable>, 'project_id'>
  records: readonly PlannedRecord[]
  newSubjects: readonly NewSubject[]
  /** Queue id → its checklist's line counts (an enrolling upload states the checklist met). */
  checklists: ReadonlyMap<number, { entry: string; exclude: string }>
  reason: string
}

/** Records written per part (their rows, audit rows and summaries with them). */
const recordsPerPart = 2000

const json = (v: FieldValue | undefined) => (v === undefined ? null : toJson(v))

type SummaryPatch = Record<string, string | null>
const summaryText = (v: FieldValue) => (typeof v === 'string' ? v : v.join('|'))

/**
 * A record's part of its subject's summary, as a JSON merge patch: `f<id>` → its new text, or
 * null where the value is gone; a new record's values are all new. Later records over earlier
 * ones, as saves apply them.
 */
function addToSummary(patch: SummaryPatch, r: PlannedRecord): void {
  if (!r.stored) for (const [k, v] of Object.entries(r.values)) patch[`f${k}`] = summaryText(v)
  else for (const c of r.changes) patch[`f${c.field}`] = c.new === undefined ? null : summaryText(c.new)
}

export async function writePlan(target: BulkTarget, w: WriteInput): Promise<number> {
  const tx = target.tx
  const at = w.now.toISOString()
  if ((await repo.projectStatus(tx, w.projectId))?.status !== 'active') throw new ServiceError('conflict', 'subject.projectClosed')
  const uploadId = await repo.insertUpload(tx, { ...w.upload, project_id: w.projectId })
  const changed = () => new ServiceError('conflict', 'dataLoad.changedMeanwhile')

  // Enrolment: the uploader states the queue's checklist met by asking for enrol=true.
  const enrolled = new Map<number, { id: number; centerId: number; queueId: number }>()
  for (const n of w.newSubjects) {
    const c = w.checklists.get(n.queueId)
    const checklist = {
      inclusion: conditionLines(c?.entry ?? '').map(() => true),
      exclusion: conditionLines(c?.exclude ?? '').map(() => false),
    }
    const factors = [...n.factors].map(([indicatorId, code]) => ({ indicatorId, code }))
    const s = await enrolWithin(tx, w.now, w.actor, w.who, w.projectId, {
      queueId: n.queueId,
      centerId: n.centerId,
      subjectNo: n.subjectNo,
      checklist,
      factors,
    })
    enrolled.set(n.index, { id: s.id, centerId: s.centerId, queueId: s.queueId })
  }
  const subjectOf = (r: PlannedRecord) =>
    r.subject.kind === 'known'
      ? { id: r.subject.subject.id, centerId: r.subject.subject.centerId, queueId: r.subject.subject.queueId }
      : enrolled.get(r.subject.subject.index)!

  const auditRow = (
    r: PlannedRecord,
    recordId: number,
    e: { rowId?: number; section?: string; change?: FieldChange },
  ): Insertable<DataAuditTable> => ({
    at,
    user_id: w.who.userId,
    username: w.who.username,
    ip: w.who.ip,
    project_id: w.projectId,
    subject_id: subjectOf(r).id,
    record_id: recordId,
    row_id: e.rowId ?? null,
    template_id: r.form.templateId,
    version_id: r.stored?.version_id ?? r.form.versionId,
    section_key: e.section ?? null,
    field: e.change?.field ?? '',
    action: 'import',
    old_value: json(e.change?.old),
    new_value: json(e.change?.new),
    reason: w.reason,
    upload_id: uploadId,
  })

  // A part at a time, so the statements' rows are built for a part and dropped, not for the whole file.
  for (let from = 0; from < w.records.length; from += recordsPerPart) {
    const part = w.records.slice(from, from + recordsPerPart)
    const audit: Insertable<DataAuditTable>[] = []

    // New records; each gets one audit row naming the upload.
    const fresh = part.filter((r) => !r.stored)
    const ids = await repo.insertRecords(
      target,
      fresh.map((r): Insertable<FormRecordTable> => {
        const s = subjectOf(r)
        return {
          project_id: w.projectId,
          subject_id: s.id,
          center_id: s.centerId,
          queue_id: s.queueId,
          template_id: r.form.templateId,
          version_id: r.form.versionId,
          slot: r.slot,
          visit_id: r.visitId,
          sample_id: r.sampleId,
          data: toJson(r.values),
          status: 'saved',
          rev: 1,
          created_by: w.who.userId,
          created_at: at,
          updated_by: w.who.userId,
          updated_at: at,
          upload_id: uploadId,
        }
      }),
    )
    const recordIds = new Map<PlannedRecord, number>()
    fresh.forEach((r, i) => {
      recordIds.set(r, ids[i]!)
      audit.push(auditRow(r, ids[i]!, {}))
    })

    // Changed records at their next rev (only if still at the rev the check read, and unsigned).
    for (const r of part) {
      if (!r.stored) continue
      recordIds.set(r, r.stored.id)
      if (r.changes.length === 0) continue
      const ok = await repo.updateRecord(tx, {
        id: r.stored.id,
        rev: r.stored.rev,
        data: toJson(r.values),
        userId: w.who.userId,
        at,
        uploadId,
      })
      if (!ok) throw changed()
      for (const change of r.changes) audit.push(auditRow(r, r.stored.id, { change }))
    }

    // Sub-form rows: new ones inserted, changed ones at their next rev.
    const newRows = part.flatMap((r) => [...r.rows.values()].filter((p) => !p.stored).map((p) => ({ r, p })))
    const rowIds = await repo.insertRows(
      target,
      newRows.map(({ r, p }) => ({
        record_id: recordIds.get(r)!,
        section_key: p.section,
        sort: p.sort,
        data: toJson(p.values),
        rev: 1,
        created_by: w.who.userId,
        created_at: at,
        updated_by: w.who.userId,
        updated_at: at,
        upload_id: uploadId,
      })),
    )
    newRows.forEach(({ r, p }, i) => audit.push(auditRow(r, recordIds.get(r)!, { rowId: rowIds[i]!, section: p.section })))
    for (const r of part) {
      for (const p of r.rows.values()) {
        if (!p.stored || p.changes.length === 0) continue
        const ok = await repo.updateRow(tx, {
          id: p.stored.id,
          rev: p.stored.rev,
          data: toJson(p.values),
          userId: w.who.userId,
          at,
          uploadId,
        })
        if (!ok) throw changed()
        for (const change of p.changes) audit.push(auditRow(r, r.stored!.id, { rowId: p.stored.id, section: p.section, change }))
      }
    }
    await repo.insertAudit(target, audit)

    // The subject's summary: the latest plain values of its single-instance forms, as a save keeps it.
    const bySubject = new Map<number, SummaryPatch>()
    for (const r of part) {
      if (r.form.mode !== 'single' || (r.stored && r.changes.length === 0)) continue
      const id = subjectOf(r).id
      let patch = bySubject.get(id)
      if (!patch) bySubject.set(id, (patch = {}))
      addToSummary(patch, r)
    }
    await repo.patchSummaries(
      target,
      [...bySubject].map(([id, patch]) => ({ id, patch: toJson(patch) })),
      at,
    )
  }
  return uploadId
}
