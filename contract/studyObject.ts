import { z } from 'zod'
import { endpoint } from './endpoint.ts'
import { envelope } from './envelope.ts'
import { idParam } from './ids.ts'

export const studyObjectPaths = {
  buttonAuthority: 'api/scientific/studyObject/studyObjectButtonAuthority',
  groupList: 'api/scientific/studyObject/getStudyGroupList',
  centerList: 'api/scientific/studyObject/centerList',
} as const

/**
 * SPEC §7 studyObjectButtonAuthority: which research-object buttons the caller may use, from the
 * same role grants the server enforces (contract/permissions.ts `subject.*`, `dataLoad.*`).
 */
export const buttonAuthority = z.object({
  view: z.boolean(),
  add: z.boolean(),
  edit: z.boolean(),
  delete: z.boolean(),
  sign: z.boolean(),
  export: z.boolean(),
  unblind: z.boolean(),
  import: z.boolean(),
})
export type ButtonAuthority = z.infer<typeof buttonAuthority>
export const buttonAuthorityResponse = envelope(buttonAuthority)

/** SPEC getStudyGroupList: the queues (cohorts) of the project `studyId` that the caller's project role grants. */
export const studyGroupQuery = z.object({
  studyId: idParam,
  token: z.string().max(256).optional(),
})
export const studyGroup = z.object({
  id: z.number().int(),
  key: z.string(),
  name: z.string(),
  entryCondition: z.string(),
  excludeCondition: z.string(),
  sort: z.number().int(),
})
export type StudyGroup = z.infer<typeof studyGroup>
export const studyGroupListResponse = envelope(z.array(studyGroup))

/** SPEC centerList: the centers of the project `studyId` that the caller's project role grants; `centerId` asks for one. */
export const studyCenterQuery = studyGroupQuery.extend({ centerId: idParam.optional() })
export const studyCenter = z.object({
  id: z.number().int(),
  code: z.string(),
  nameZh: z.string(),
  nameEn: z.string(),
  region: z.string(),
  sort: z.number().int(),
})
export type StudyCenter = z.infer<typeof studyCenter>
export const studyCenterListResponse = envelope(z.array(studyCenter))

export const getStudyGroups = endpoint({
  method: 'GET',
  input: studyGroupQuery,
  output: z.array(studyGroup),
  request: (query) => ({ path: studyObjectPaths.groupList, query }),
})
export const getStudyCenters = endpoint({
  method: 'GET',
  input: studyCenterQuery,
  output: z.array(studyCenter),
  request: (query) => ({ path: studyObjectPaths.centerList, query }),
})
