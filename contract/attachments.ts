/**
 * Attachments of a research object (issue 10, SPEC §7 api/public/attachment and §2 the picture
 * field): pictures (type 3) of a subject, of one of its form records, or of one field of a record.
 * A picture is checked by its content (jpeg/jpg/png/bmp) and limited to 5 MB while it streams; it
 * is served only through its project (`file`), to callers who may read that subject.
 */
import { z } from 'zod'
import { endpoint } from './endpoint.ts'
import { idParam, idValue, integerParam } from './ids.ts'

/** SPEC §7 Image: the picture field sends type 3. */
export const attachmentTypes = { picture: 3 } as const

export const attachmentLimits = {
  /** SPEC §9: 5 MB. */
  maxBytes: 5 * 1024 * 1024,
  /** SPEC §5: jpeg, jpg, png, bmp (the file picker's filter; the server checks the content). */
  accept: 'image/jpeg,image/png,image/bmp,.jpeg,.jpg,.png,.bmp',
  /** The longest file name kept (a longer one is cut, its extension kept). */
  name: 200,
  /** Attachments one list answers (a subject with more is a data problem, not a paging one). */
  list: 500,
} as const

export const attachmentPaths = {
  upload: 'api/public/attachment/saveAttachmentToDetail',
  delete: 'api/public/attachment/deleteAttachmentToDetail',
  list: (projectId: number, subjectId: number) => `api/projects/${projectId}/subjects/${subjectId}/attachments`,
  file: (projectId: number, attachmentId: number) => `api/projects/${projectId}/attachments/${attachmentId}`,
} as const

const pictureType = integerParam(z.literal(attachmentTypes.picture))

/**
 * The upload's query: the project, the subject (`objectId`), and optionally the record and the
 * field of that record the picture belongs to. A field holds one picture at a time.
 */
export const attachmentUploadQuery = z.object({
  type: pictureType,
  studyId: idParam,
  objectId: idParam,
  recordId: idParam.optional(),
  indicatorId: idParam.optional(),
  token: z.string().max(256).optional(),
})
export type AttachmentUploadQuery = z.infer<typeof attachmentUploadQuery>

export const attachmentDeleteBody = z.object({
  type: z.literal(attachmentTypes.picture),
  studyId: idValue,
  objectId: idValue,
  attachmentId: idValue,
  /** Why the saved picture goes (required, as for any change of saved data). */
  reason: z.string().trim().max(500).default(''),
})
export type AttachmentDeleteBody = z.infer<typeof attachmentDeleteBody>

export const attachmentListParams = z.object({ id: idParam, subjectId: idParam })
/** Without recordId: every attachment of the subject; with it: those of that record (and field). */
export const attachmentListQuery = z.object({
  recordId: idParam.optional(),
  indicatorId: idParam.optional(),
  token: z.string().max(256).optional(),
})
export const attachmentFileParams = z.object({ id: idParam, attachmentId: idParam })

export const attachment = z.object({
  id: z.number().int(),
  subjectId: z.number().int(),
  recordId: z.number().int().nullable(),
  indicatorId: z.number().int().nullable(),
  name: z.string(),
  mime: z.string(),
  size: z.number().int(),
  /** Where the picture is served (SPEC: the upload answers data.path). */
  path: z.string(),
  createdAt: z.string(),
  createdBy: z.string(),
})
export type Attachment = z.infer<typeof attachment>

export const attachmentList = z.object({ rows: z.array(attachment) })
export type AttachmentList = z.infer<typeof attachmentList>

export const listAttachments = endpoint({
  method: 'GET',
  input: z.object({ studyId: idValue, subjectId: idValue, recordId: idValue.optional(), indicatorId: idValue.optional() }),
  output: attachmentList,
  request: ({ studyId, subjectId, recordId, indicatorId }) => ({
    path: attachmentPaths.list(studyId, subjectId),
    query: { recordId, indicatorId },
  }),
})

export const deleteAttachment = endpoint({
  method: 'POST',
  input: attachmentDeleteBody,
  output: z.unknown().transform(() => undefined),
  request: (body) => ({ path: attachmentPaths.delete, body }),
})
