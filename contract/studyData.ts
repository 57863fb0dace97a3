/**
 * Entered study data (issue 10): the SPEC §7 api/scientific/form calls that read and write a
 * subject's forms, and the field-level audit trail. Every call names the project (`studyId`) and
 * the subject (`objectId`); the server answers only subjects of the caller's queues and centers.
 *
 * A form instance (record) holds the values of its plain sections; each sub-form row is saved on
 * its own. Both carry `rev`, the number of saves so far: a save names the rev it started from, and
 * a save from an older rev is refused (409) with the current values, so nobody overwrites another
 * person's save without seeing it. Changing a value that was saved needs a reason.
 */
import { z } from 'zod'
import { endpoint, noData } from './endpoint.ts'
import { idParam, idValue, integerParam } from './ids.ts'
import { collectTypes, templateVersion } from './crf.ts'

export const studyDataLimits = {
  /** Characters of one value (a text area) and answers of one multiple choice. */
  value: 10_000,
  answers: 200,
  reason: 500,
  rows: 1000,
  historyPage: 200,
} as const

export const studyDataPaths = {
  displayForms: 'api/scientific/form/getDisplayFormInfo',
  saveDisplayForms: 'api/scientific/form/saveDisplayFormInfo',
  formTree: 'api/scientific/form/getOneFormInfoTree',
  formList: 'api/scientific/form/getOneFormInfoList',
  form: 'api/scientific/form/getOneFormInfo',
  viewForm: 'api/scientific/form/viewOneFormInfo',
  saveForm: 'api/scientific/form/saveOneFormInfo',
  saveRow: 'api/scientific/form/saveOneRowInfo',
  deleteRow: 'api/scientific/form/deleteOneRowInfo',
  deleteForm: 'api/scientific/studyObject/delStudyObjectForm',
  /** Not a SPEC call: signing a record (resource style, DESIGN §3). */
  sign: (projectId: number, recordId: number) => `api/projects/${projectId}/records/${recordId}/sign`,
  /** The audit trail of a subject, of one record, or of one field of it. */
  history: (projectId: number, subjectId: number) => `api/projects/${projectId}/subjects/${subjectId}/history`,
  /** Not a SPEC call: an emergency unblinding of one subject (a grant, with a reason, logged). */
  unblind: (projectId: number, subjectId: number) => `api/projects/${projectId}/subjects/${subjectId}/unblind`,
} as const

/** A value as stored and sent: text, or the codes of a multiple choice. '' is empty. */
export const fieldValue = z.union([
  z.string().max(studyDataLimits.value),
  z.array(z.string().max(studyDataLimits.value)).max(studyDataLimits.answers),
])
/** Values by indicator id (as text). */
export const fieldValues = z.record(z.string().regex(/^\d{1,10}$/), fieldValue)
export type StoredValues = z.infer<typeof fieldValues>

export const reason = z.string().trim().max(studyDataLimits.reason)

/** The project and subject every call names. */
export const subjectRef = z.object({ studyId: idParam, objectId: idParam })
const subjectRefBody = z.object({ studyId: idValue, objectId: idValue })

export const recordStatuses = ['saved', 'signed'] as const
export type RecordStatus = (typeof recordStatuses)[number]

/**
 * How a form is filled for a subject: once ('single'), once per visit of the follow-up schedule
 * ('visit', collect type followUp), or once per sample ('sample', collect type biomaterial).
 */
export const formModes = ['single', 'visit', 'sample'] as const
export type FormMode = (typeof formModes)[number]

/** One saved instance of a form, as lists show it. */
export const recordHead = z.object({
  id: z.number().int(),
  templateId: z.number().int(),
  versionId: z.number().int(),
  slot: z.string(),
  visitId: z.number().int().nullable(),
  sampleId: z.number().int().nullable(),
  status: z.enum(recordStatuses),
  rev: z.number().int(),
  updatedAt: z.string(),
  updatedBy: z.string(),
})
export type RecordHead = z.infer<typeof recordHead>

// ---------------------------------------------------------------------------------------------
// getDisplayFormInfo / saveDisplayFormInfo: which of the project's forms the detail shows, in order

export const displayForm = z.object({
  templateId: z.number().int(),
  /** The version the project pins. */
  versionId: z.number().int(),
  name: z.string(),
  collectType: z.enum(collectTypes),
  preposeIds: z.array(z.number().int()),
  shown: z.boolean(),
})
export type DisplayForm = z.infer<typeof displayForm>
export const displayFormsQuery = z.object({ studyId: idParam })
export const displayFormsSave = z.object({
  studyId: idValue,
  forms: z.array(z.object({ templateId: idValue, shown: z.boolean() })).max(500),
})

// ---------------------------------------------------------------------------------------------
// getOneFormInfoTree: the subject's forms, prepose ones before those that depend on them

export const formNode = displayForm.omit({ shown: true }).extend({
  mode: z.enum(formModes),
  /** Prepose forms (by template id) not yet saved for this subject: this one waits for them. */
  waitingFor: z.array(z.number().int()),
  records: z.array(recordHead),
})
export type FormNode = z.infer<typeof formNode>
export const formTree = z.object({ nodes: z.array(formNode) })
export type FormTree = z.infer<typeof formTree>

// getOneFormInfoList: the instances (visits, samples, repeats) of one form of a subject
export const formListQuery = subjectRef.extend({ templateId: idParam })

// ---------------------------------------------------------------------------------------------
// getOneFormInfo / viewOneFormInfo: one instance with its values and the version it is read against

/** Either an existing record, or the form and slot of one not saved yet (then values are empty). */
export const formQuery = subjectRef.extend({
  templateId: idParam,
  recordId: idParam.optional(),
  slot: z.string().max(40).optional(),
})
export const formRowData = z.object({ id: z.number().int(), rev: z.number().int(), values: fieldValues })
export type FormRowData = z.infer<typeof formRowData>
export const formInstance = z.object({
  /** Null until first saved. */
  record: recordHead.nullable(),
  values: fieldValues,
  rows: z.record(z.string(), z.array(formRowData)),
  /** The record's own version, or the project's pinned version for a new one. */
  version: templateVersion,
})
export type FormInstance = z.infer<typeof formInstance>

// ---------------------------------------------------------------------------------------------
// saveOneFormInfo: the plain values and, optionally, the sub-form rows in one transaction

export const rowSave = z.object({
  /** Absent for a new row. */
  id: idValue.optional(),
  /** The rev the row was read at (absent for a new row). */
  rev: z.number().int().min(1).optional(),
  values: fieldValues,
})
export const formSave = subjectRefBody.extend({
  templateId: idValue,
  /** Absent for a first save; then `slot` names the instance. */
  recordId: idValue.optional(),
  slot: z.string().max(40).default(''),
  /** The rev the form was read at; 0 for a first save. */
  rev: z.number().int().min(0),
  values: fieldValues,
  /**
   * Sub-form rows by section key, when sent: the section's rows become exactly these (rows not
   * listed are deleted, so each listed row needs its rev).
   */
  rows: z.record(z.string(), z.array(rowSave).max(studyDataLimits.rows)).optional(),
  /** Required when a saved value changes or a saved row is deleted. */
  reason: reason.optional(),
})
export type FormSave = z.infer<typeof formSave>
export const formSaved = z.object({
  record: recordHead,
  rows: z.record(z.string(), z.array(z.object({ id: z.number().int(), rev: z.number().int() }))),
  /** How many fields changed (0: nothing was written). */
  changed: z.number().int(),
})
export type FormSaved = z.infer<typeof formSaved>

/**
 * The 409 of a stale save: what is stored now, so the client shows the other person's values
 * field by field and lets the user choose (the envelope's `data`).
 */
export const saveConflict = z.object({
  kind: z.literal('conflict'),
  current: formInstance.omit({ version: true }),
})
export type SaveConflict = z.infer<typeof saveConflict>

/**
 * The 400 of a save with refused values: every refused field's message by
 * contract/formValues fieldPath (the envelope's `data`), so the form marks each of them.
 */
export const saveInvalid = z.object({
  kind: z.literal('invalid'),
  errors: z.record(z.string(), z.object({ key: z.string(), params: z.array(z.union([z.string(), z.number()])).optional() })),
})
export type SaveInvalid = z.infer<typeof saveInvalid>

// saveOneRowInfo / deleteOneRowInfo: one sub-form row. A row is part of its form instance, so the
// call also names the rev the instance was read at, and a change moves the instance to its next rev.
export const rowSaveInput = subjectRefBody.extend({
  recordId: idValue,
  recordRev: z.number().int().min(1),
  sectionKey: z.string().max(40),
  row: rowSave,
  reason: reason.optional(),
})
export const rowDeleteInput = subjectRefBody.extend({
  recordId: idValue,
  recordRev: z.number().int().min(1),
  rowId: idValue,
  rev: z.number().int().min(1),
  reason: reason.optional(),
})
/** What a row call leaves: the row (absent after a delete) and the instance at its new rev. */
export const rowSaved = z.object({ row: formRowData.pick({ id: true, rev: true }), record: recordHead })
export type RowSaved = z.infer<typeof rowSaved>
export const rowDeleted = z.object({ record: recordHead })
export type RowDeleted = z.infer<typeof rowDeleted>

// delStudyObjectForm (query): a subject's form instance; refused once signed or the project closed
export const formDeleteQuery = subjectRef.extend({ recordId: idParam, reason: reason.optional() })

export const signInput = z.object({ rev: z.number().int().min(1), reason: reason.optional() })

// Emergency unblinding: the reason is required; the answer is the subject's group.
export const unblindInput = z.object({ reason: reason.min(1) })
export const unblinded = z.object({ group: z.object({ code: z.string(), name: z.string() }) })
export type Unblinded = z.infer<typeof unblinded>

// ---------------------------------------------------------------------------------------------
// The audit trail

export const dataAuditActions = [
  'create',
  'update',
  'clear',
  'rowAdd',
  'rowDelete',
  'rowOrder',
  'formDelete',
  'sign',
  'unblind',
  'import',
] as const
export type DataAuditAction = (typeof dataAuditActions)[number]

export const historyQuery = z.object({
  recordId: idParam.optional(),
  /** An indicator id: the history of one field (of `recordId`). */
  field: idParam.optional(),
  /** A sub-form row of `recordId`: the history of `field` in that row alone (a field of a sub form is in every row). */
  rowId: idParam.optional(),
  /** Keyset: entries older than this id. */
  before: idParam.optional(),
  limit: integerParam(z.number().int().min(1).max(studyDataLimits.historyPage)).default(50),
})
export const historyEntry = z.object({
  id: z.number().int(),
  at: z.string(),
  username: z.string(),
  ip: z.string(),
  action: z.enum(dataAuditActions),
  recordId: z.number().int().nullable(),
  rowId: z.number().int().nullable(),
  /** Where the entry's sub-form row stands in its sub form now (1 = first); null when it is of no row, or the row was deleted. */
  rowNo: z.number().int().nullable(),
  templateId: z.number().int().nullable(),
  versionId: z.number().int().nullable(),
  sectionKey: z.string().nullable(),
  /** Indicator id, null for an event of a whole record or row. */
  field: z.number().int().nullable(),
  /** The field's question as the entry's version has it ('' without a field). */
  fieldNameZh: z.string(),
  fieldNameEn: z.string(),
  /** The name of the entry's CRF ('' for an event of the subject alone). */
  formName: z.string(),
  oldValue: fieldValue.nullable(),
  newValue: fieldValue.nullable(),
  reason: z.string(),
})
export type HistoryEntry = z.infer<typeof historyEntry>
export const historyPage = z.object({ entries: z.array(historyEntry), nextBefore: z.number().int().nullable() })
export type HistoryPage = z.infer<typeof historyPage>

// ---------------------------------------------------------------------------------------------
// Endpoints

export const getDisplayForms = endpoint({
  method: 'GET',
  input: displayFormsQuery,
  output: z.array(displayForm),
  request: (query) => ({ path: studyDataPaths.displayForms, query }),
})
export const saveDisplayForms = endpoint({
  method: 'POST',
  input: displayFormsSave,
  output: noData,
  request: (body) => ({ path: studyDataPaths.saveDisplayForms, body }),
})
export const getFormTree = endpoint({
  method: 'GET',
  input: subjectRef,
  output: formTree,
  request: (query) => ({ path: studyDataPaths.formTree, query }),
})
export const getFormList = endpoint({
  method: 'GET',
  input: formListQuery,
  output: z.array(recordHead),
  request: (query) => ({ path: studyDataPaths.formList, query }),
})
export const getForm = endpoint({
  method: 'GET',
  input: formQuery,
  output: formInstance,
  request: (query) => ({ path: studyDataPaths.form, query }),
})
export const viewForm = endpoint({
  method: 'GET',
  input: formQuery,
  output: formInstance,
  request: (query) => ({ path: studyDataPaths.viewForm, query }),
})
export const saveForm = endpoint({
  method: 'POST',
  input: formSave,
  output: formSaved,
  request: (body) => ({ path: studyDataPaths.saveForm, body }),
})
export const saveRow = endpoint({
  method: 'POST',
  input: rowSaveInput,
  output: rowSaved,
  request: (body) => ({ path: studyDataPaths.saveRow, body }),
})
export const deleteRow = endpoint({
  method: 'POST',
  input: rowDeleteInput,
  output: rowDeleted,
  request: (body) => ({ path: studyDataPaths.deleteRow, body }),
})
export const deleteForm = endpoint({
  method: 'POST',
  input: formDeleteQuery,
  output: noData,
  request: (query) => ({ path: studyDataPaths.deleteForm, query }),
})
export const signRecord = endpoint({
  method: 'POST',
  input: signInput.extend({ studyId: idValue, recordId: idValue }),
  output: recordHead,
  request: ({ studyId, recordId, ...body }) => ({ path: studyDataPaths.sign(studyId, recordId), body }),
})
export const getHistory = endpoint({
  method: 'GET',
  input: historyQuery.extend({ studyId: idValue, objectId: idValue }),
  output: historyPage,
  request: ({ studyId, objectId, ...query }) => ({ path: studyDataPaths.history(studyId, objectId), query }),
})
export const unblindSubject = endpoint({
  method: 'POST',
  input: unblindInput.extend({ studyId: idValue, objectId: idValue }),
  output: unblinded,
  request: ({ studyId, objectId, ...body }) => ({ path: studyDataPaths.unblind(studyId, objectId), body }),
})
