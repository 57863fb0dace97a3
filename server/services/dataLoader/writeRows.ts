import type { Insertable, Updateable } from 'kysely'
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
import type { FieldChange, PlanBatch, PlannedRecord, PlannedRow } from './checkRows.ts'
import { hasSubForms } from './layout.ts'
import { addToSummary, summaryOfData, type SummaryPatch } from './summaryPatch.ts'

/**
 * The writes of an upload, batch by batch as the checker passes its plan on, inside the one
 * transaction the caller holds from the first batch to the commit: the upload's record first (its
 * id goes on every new record and row and every audit row; its counts are set at the end), the
 * subjects it enrols (by the enrolment rules, randomized when the plan says so, when the first
 * row naming them is written), new records and rows, changed ones at their next rev with one
 * audit row per changed field, and the subjects' summaries as a save keeps them. A record saved
 * by someone else since it was read, or a rule broken at enrolment, throws, and the transaction
 * takes everything back; so does the caller when any cell of the file was refused.
 */

export interface WriteInput {
  now: Date
  actor: Actor
  who: AuditActor
  projectId: number
  upload: Omit<Insertable<DataUploadTable>, 'project_id'>
  /** Queue id → its checklist's line counts (an enrolling upload states the checklist met). */
  checklists: ReadonlyMap<number, { entry: string; exclude: string }>
  reason: string
}

/** Records written per part (their rows, audit rows and summaries with them). */
const recordsPerPart = 2000

const json = (v: FieldValue | undefined) => (v === undefined ? null : toJson(v))

export class PlanWriter {
  private uploadId = 0
  private readonly at: string
  private readonly enrolled = new Map<number, { id: number; centerId: number; queueId: number }>()
  /** Subjects whose summary this upload has written: no longer as the check read it. */
  private readonly summarised = new Set<number>()
  /** Instances this upload inserted, at the rev they are now. */
  private readonly written = new Map<PlannedRecord, { id: number; rev: number }>()

  constructor(
    private readonly target: BulkTarget,
    private readonly w: WriteInput,
  ) {
    this.at = w.now.toISOString()
  }

  /** The upload's record, first: its id goes on everything written; answers it. */
  async start(): Promise<number> {
    this.uploadId = await repo.insertUpload(this.target.tx, { ...this.w.upload, project_id: this.w.projectId })
    return this.uploadId
  }

  /** The upload's counts and outcome, once every batch is written. */
  async finish(set: Updateable<DataUploadTable>): Promise<void> {
    await repo.updateUpload(this.target.tx, this.uploadId, set)
  }

  private subjectOf(r: PlannedRecord) {
    return r.subject.kind === 'known'
      ? { id: r.subject.subject.id, centerId: r.subject.subject.centerId, queueId: r.subject.subject.queueId }
      : this.enrolled.get(r.subject.subject.index)!
  }

  /** Enrolment of a new subject: the uploader states the queue's checklist met by asking for enrol=true. */
  private async enrol(r: PlannedRecord): Promise<void> {
    if (r.subject.kind !== 'new' || this.enrolled.has(r.subject.subject.index)) return
    const n = r.subject.subject
    const c = this.w.checklists.get(n.queueId)
    const s = await enrolWithin(this.target.tx, this.w.now, this.w.actor, this.w.who, this.w.projectId, {
      queueId: n.queueId,
      centerId: n.centerId,
      subjectNo: n.subjectNo,
      checklist: {
        inclusion: conditionLines(c?.entry ?? '').map(() => true),
        exclusion: conditionLines(c?.exclude ?? '').map(() => false),
      },
      factors: [...n.factors].map(([indicatorId, code]) => ({ indicatorId, code })),
    })
    this.enrolled.set(n.index, { id: s.id, centerId: s.centerId, queueId: s.queueId })
  }

  private auditRow(
    r: PlannedRecord,
    recordId: number,
    e: { rowId?: number; section?: string; change: FieldChange },
  ): Insertable<DataAuditTable> {
    return {
      at: this.at,
      user_id: this.w.who.userId,
      username: this.w.who.username,
      ip: this.w.who.ip,
      project_id: this.w.projectId,
      subject_id: this.subjectOf(r).id,
      record_id: recordId,
      row_id: e.rowId ?? null,
      template_id: r.form.templateId,
      version_id: r.stored?.version_id ?? r.form.versionId,
      section_key: e.section ?? null,
      field: e.change.field,
      action: 'import',
      old_value: json(e.change.old),
      new_value: json(e.change.new),
      reason: this.w.reason,
      upload_id: this.uploadId,
    }
  }

  /** One audit row naming the upload per instance or row just inserted. */
  private async auditNew(kind: 'record' | 'row', ids: readonly number[]): Promise<void> {
    if (ids.length === 0) return
    const { who } = this.w
    await repo.auditNew(this.target.tx, kind, Math.min(...ids), Math.max(...ids), {
      at: this.at,
      userId: who.userId,
      username: who.username,
      ip: who.ip,
      reason: this.w.reason,
      uploadId: this.uploadId,
    })
  }

  /** What a new instance or row of this upload carries: its first rev, who and when, the upload. */
  private created() {
    const { userId } = this.w.who
    return { rev: 1, created_by: userId, created_at: this.at, updated_by: userId, updated_at: this.at, upload_id: this.uploadId }
  }

  private recordIdOf(r: PlannedRecord): number {
    return r.stored?.id ?? this.written.get(r)!.id
  }

  /** One batch of the plan, a part at a time so the statements' rows are built for a part and dropped. */
  async write(batch: PlanBatch): Promise<void> {
    for (let from = 0; from < batch.records.length; from += recordsPerPart)
      await this.writeRecords(batch.records.slice(from, from + recordsPerPart))
    for (let from = 0; from < batch.rows.length; from += recordsPerPart) await this.writeRows(batch.rows.slice(from, from + recordsPerPart))
  }

  private async writeRecords(part: readonly PlannedRecord[]): Promise<void> {
    const { tx } = this.target
    const { who } = this.w
    const at = this.at
    for (const r of part) await this.enrol(r)
    const audit: Insertable<DataAuditTable>[] = []

    // New instances; each gets one audit row naming the upload.
    const fresh = part.filter((r) => !r.stored && !this.written.has(r))
    const inserted = new Set(fresh)
    const data = new Map(fresh.map((r) => [r, toJson(r.values)]))
    const ids = await repo.insertRecords(
      this.target,
      fresh.map((r): Insertable<FormRecordTable> => {
        const s = this.subjectOf(r)
        return {
          project_id: this.w.projectId,
          subject_id: s.id,
          center_id: s.centerId,
          queue_id: s.queueId,
          template_id: r.form.templateId,
          version_id: r.form.versionId,
          slot: r.slot,
          visit_id: r.visitId,
          sample_id: r.sampleId,
          data: data.get(r)!,
          status: 'saved',
          ...this.created(),
        }
      }),
    )
    fresh.forEach((r, i) => {
      // Only sub-form rows and a later main row come back to an instance; the rest is let go.
      if (hasSubForms(r.form)) this.written.set(r, { id: ids[i]!, rev: 1 })
    })
    await this.auditNew('record', ids)

    for (const r of part) {
      // Stored ones at their next rev (only if still at the rev the check read, and unsigned).
      if (r.stored && r.changes.length > 0) {
        const ok = await repo.updateRecord(tx, {
          id: r.stored.id,
          rev: r.stored.rev,
          data: toJson(r.values),
          userId: who.userId,
          at,
          uploadId: this.uploadId,
        })
        if (!ok) throw changed()
        for (const change of r.changes) audit.push(this.auditRow(r, r.stored.id, { change }))
      }
      // One this upload started from sub-form rows, its plain values given by a later row.
      const mine = this.written.get(r)
      if (mine && !inserted.has(r)) {
        if (
          !(await repo.updateRecord(tx, {
            id: mine.id,
            rev: mine.rev,
            data: toJson(r.values),
            userId: who.userId,
            at,
            uploadId: this.uploadId,
          }))
        )
          throw changed()
        mine.rev++
      }
    }
    await repo.insertAudit(this.target, audit)

    // The subject's summary: the latest plain values of its single-instance forms, as a save keeps it.
    const bySubject = new Map<number, PlannedRecord[]>()
    for (const r of part) {
      if (r.form.mode !== 'single' || (r.stored && r.changes.length === 0)) continue
      const id = this.subjectOf(r).id
      const mine = bySubject.get(id)
      if (mine) mine.push(r)
      else bySubject.set(id, [r])
    }
    await repo.patchSummaries(
      this.target,
      [...bySubject].map(([id, records]) => this.summaryPatch(id, records, data)),
      at,
    )
  }

  /**
   * One subject's summary patch from its records of a part, in order. A lone new record's patch
   * may replace a summary that was empty when the check read it and that this upload has not
   * written since (it holds no null: nothing to remove).
   */
  private summaryPatch(id: number, records: readonly PlannedRecord[], data: ReadonlyMap<PlannedRecord, string>) {
    const first = records[0]!
    const untouched = !this.summarised.has(id)
    this.summarised.add(id)
    const stored = data.get(first)
    const quick = records.length === 1 && stored !== undefined ? summaryOfData(stored) : undefined
    if (quick !== undefined) {
      const empty = untouched && (first.subject.kind === 'new' || first.subject.subject.summaryEmpty)
      return { id, patch: quick, empty }
    }
    const patch: SummaryPatch = {}
    for (const r of records) addToSummary(patch, r)
    return { id, patch: toJson(patch), empty: false }
  }

  /** Sub-form rows: new ones inserted, changed ones at their next rev. Their instances are written before them. */
  private async writeRows(part: readonly { record: PlannedRecord; row: PlannedRow }[]): Promise<void> {
    const { tx } = this.target
    const { who } = this.w
    const at = this.at
    const starting = [...new Set(part.map((x) => x.record))].filter((r) => !r.stored && !this.written.has(r))
    if (starting.length > 0) await this.writeRecords(starting)
    const audit: Insertable<DataAuditTable>[] = []
    const fresh = part.filter((x) => !x.row.stored)
    const rowIds = await repo.insertRows(
      this.target,
      fresh.map(({ record, row }) => ({
        record_id: this.recordIdOf(record),
        section_key: row.section,
        sort: row.sort,
        data: toJson(row.values),
        ...this.created(),
      })),
    )
    await this.auditNew('row', rowIds)
    for (const { record, row } of part) {
      if (!row.stored || row.changes.length === 0) continue
      const ok = await repo.updateRow(tx, {
        id: row.stored.id,
        rev: row.stored.rev,
        data: toJson(row.values),
        userId: who.userId,
        at,
        uploadId: this.uploadId,
      })
      if (!ok) throw changed()
      for (const change of row.changes)
        audit.push(this.auditRow(record, this.recordIdOf(record), { rowId: row.stored.id, section: row.section, change }))
    }
    await repo.insertAudit(this.target, audit)
  }
}

const changed = () => new ServiceError('conflict', 'dataLoad.changedMeanwhile')
