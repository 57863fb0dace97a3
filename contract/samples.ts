/**
 * Samples (issue 10 item 9, SPEC /sample/index): biomaterial of a research subject in a project
 * that manages biomaterial. A sample number is unique per project in any case; an aliquot is a
 * sample whose parent is another sample of the same subject and type (an aliquot tree). Sample
 * CRFs (templates of collect type biomaterial) are form records with slot `s<sampleId>`, entered
 * through the api/scientific/form calls; the list says for each sample which of them are filled.
 */
import { z } from 'zod'
import { endpoint, noData } from './endpoint.ts'
import { idParam, idValue, integerParam } from './ids.ts'
import { dayOrMinuteSpelling, isDayOrMinute } from './dayOrMinute.ts'
import { identifierText, identifierValue } from './identifierText.ts'

export const sampleLimits = { sampleNo: 50, location: 40, remarks: 500, quantity: 1_000_000_000, reason: 500 } as const

export const sampleTypes = ['wholeBlood', 'serum', 'plasma', 'urine', 'tissue', 'dna', 'rna', 'saliva', 'stool', 'csf', 'other'] as const
export type SampleType = (typeof sampleTypes)[number]
export const sampleUnits = ['mL', 'uL', 'g', 'mg', 'ug', 'ng', 'cells', 'pieces'] as const
export type SampleUnit = (typeof sampleUnits)[number]
export const sampleStatuses = ['available', 'used', 'destroyed'] as const
export type SampleStatus = (typeof sampleStatuses)[number]
/**
 * What a sample's status still allows, for the server's checks and the list's buttons alike: only
 * an available sample has material to aliquot, and destroyed is final (its status stays).
 */
export const sampleMay = (status: SampleStatus) => ({ aliquot: status === 'available', changeStatus: status !== 'destroyed' })
export const sampleSortKeys = ['sampleNo', 'collectedAt', 'updated'] as const
export type SampleSortKey = (typeof sampleSortKeys)[number]

export const samplePaths = {
  list: (projectId: number) => `api/projects/${projectId}/samples`,
  one: (projectId: number, sampleId: number) => `api/projects/${projectId}/samples/${sampleId}`,
  status: (projectId: number, sampleId: number) => `api/projects/${projectId}/samples/${sampleId}/status`,
  tree: (projectId: number, sampleId: number) => `api/projects/${projectId}/samples/${sampleId}/tree`,
} as const

/** The sample CRF slot of a form record (contract/studyData.ts `slot`). */
export const sampleSlot = (sampleId: number): string => `s${sampleId}`

/** Wall-clock time at the site, as entered: a real day, or a minute of one. */
export const isCollectedAt = isDayOrMinute
/** The message key of a collection time refused by isCollectedAt (server/i18n/messages.ts). */
export const collectedAtKey = 'field.dayOrMinute'

/** A typed collection time read as a date field reads one (`2026/11/20 8:30`, `20261120`); as typed when it is neither form. */
export const collectedAtSpelling = dayOrMinuteSpelling

const location = z.string().trim().max(sampleLimits.location)

/** What a person types for a sample; blank texts are stored as ''. */
export const sampleFields = z
  .object({
    /** Blank: generated from the subject number (BJ01-0001-S1) or the parent's (BJ01-0001-S1-1). */
    sampleNo: identifierValue(sampleLimits.sampleNo).default(''),
    /** Required for a sample of a subject; an aliquot has its parent's type. */
    type: z.enum(sampleTypes).optional(),
    collectedAt: z
      .string()
      .refine(isCollectedAt, { params: { key: collectedAtKey } })
      .nullable()
      .default(null),
    quantity: z.number().min(0).max(sampleLimits.quantity).nullable().default(null),
    unit: z.enum(sampleUnits).nullable().default(null),
    freezer: location.default(''),
    rack: location.default(''),
    box: location.default(''),
    position: location.default(''),
    remarks: z.string().trim().max(sampleLimits.remarks).default(''),
  })
  .strict()
export type SampleFields = z.infer<typeof sampleFields>

/**
 * A new sample of a subject (`subjectId`, or its number `subjectNo` in any case, as a person types
 * it), or an aliquot of a sample (`parentId`): exactly one of them.
 */
export const sampleCreate = sampleFields
  .extend({
    subjectId: idValue.optional(),
    subjectNo: identifierValue(50).pipe(z.string().min(1)).optional(),
    parentId: idValue.optional(),
  })
  .strict()
export type SampleCreate = z.infer<typeof sampleCreate>

export const sampleUpdate = sampleFields
export type SampleUpdate = z.infer<typeof sampleUpdate>

export const sampleStatusInput = z
  .object({ status: z.enum(sampleStatuses), reason: z.string().trim().max(sampleLimits.reason).default('') })
  .strict()
export type SampleStatusInput = z.infer<typeof sampleStatusInput>

export const sampleParams = z.object({ id: idParam, sampleId: idParam })

export const sampleListQuery = z.object({
  /** Prefix of the sample number (any case). */
  q: z.string().transform(identifierText).pipe(z.string().max(sampleLimits.sampleNo)).optional(),
  subjectId: idParam.optional(),
  centerId: idParam.optional(),
  queueId: idParam.optional(),
  type: z.enum(sampleTypes).optional(),
  status: z.enum(sampleStatuses).optional(),
  sort: z.enum(sampleSortKeys).default('sampleNo'),
  order: z.enum(['asc', 'desc']).default('asc'),
  after: z.string().max(500).optional(),
  limit: integerParam(z.number().int().min(1).max(1000)).default(50),
})
export type SampleListQuery = z.infer<typeof sampleListQuery>

/** A sample CRF of the project and whether this sample's record of it exists. */
export const sampleForm = z.object({
  templateId: z.number().int(),
  name: z.string(),
  /** Null: not filled yet. */
  recordId: z.number().int().nullable(),
  status: z.enum(['empty', 'saved', 'signed']),
})
export type SampleForm = z.infer<typeof sampleForm>

export const sample = z.object({
  id: z.number().int(),
  sampleNo: z.string(),
  subjectId: z.number().int(),
  subjectNo: z.string(),
  centerId: z.number().int(),
  centerCode: z.string(),
  queueId: z.number().int(),
  queueName: z.string(),
  parentId: z.number().int().nullable(),
  parentNo: z.string().nullable(),
  rootId: z.number().int(),
  type: z.enum(sampleTypes),
  collectedAt: z.string().nullable(),
  quantity: z.number().nullable(),
  unit: z.enum(sampleUnits).nullable(),
  freezer: z.string(),
  rack: z.string(),
  box: z.string(),
  position: z.string(),
  status: z.enum(sampleStatuses),
  remarks: z.string(),
  /** Direct aliquots. */
  aliquots: z.number().int(),
  forms: z.array(sampleForm),
  createdAt: z.string(),
  updatedAt: z.string(),
})
export type Sample = z.infer<typeof sample>

export const samplePage = z.object({ rows: z.array(sample), next: z.string().nullable(), total: z.number().int() })
export type SamplePage = z.infer<typeof samplePage>

/** The whole aliquot tree a sample belongs to, root first, each parent before its aliquots. */
export const sampleTree = z.object({ rows: z.array(sample.extend({ depth: z.number().int() })) })
export type SampleTree = z.infer<typeof sampleTree>

// ---------------------------------------------------------------------------------------------
// The calls

const id = idValue

export const listSamples = endpoint({
  method: 'GET',
  input: sampleListQuery.partial().extend({ studyId: id }),
  output: samplePage,
  request: ({ studyId, ...query }) => ({ path: samplePaths.list(studyId), query }),
})

export const getSample = endpoint({
  method: 'GET',
  input: z.object({ studyId: id, sampleId: id }),
  output: sample,
  request: ({ studyId, sampleId }) => ({ path: samplePaths.one(studyId, sampleId) }),
})

export const createSample = endpoint({
  method: 'POST',
  input: z.object({ studyId: id, sample: sampleCreate }),
  output: sample,
  request: ({ studyId, sample }) => ({ path: samplePaths.list(studyId), body: sample }),
})

export const updateSample = endpoint({
  method: 'PUT',
  input: z.object({ studyId: id, sampleId: id, sample: sampleUpdate }),
  output: sample,
  request: ({ studyId, sampleId, sample }) => ({ path: samplePaths.one(studyId, sampleId), body: sample }),
})

export const setSampleStatus = endpoint({
  method: 'PUT',
  input: z.object({ studyId: id, sampleId: id, change: sampleStatusInput }),
  output: sample,
  request: ({ studyId, sampleId, change }) => ({ path: samplePaths.status(studyId, sampleId), body: change }),
})

export const deleteSample = endpoint({
  method: 'DELETE',
  input: z.object({ studyId: id, sampleId: id }),
  output: noData,
  request: ({ studyId, sampleId }) => ({ path: samplePaths.one(studyId, sampleId) }),
})

export const getSampleTree = endpoint({
  method: 'GET',
  input: z.object({ studyId: id, sampleId: id }),
  output: sampleTree,
  request: ({ studyId, sampleId }) => ({ path: samplePaths.tree(studyId, sampleId) }),
})
