import type { ButtonAuthority, StudyCenter, StudyGroup } from '../../../contract/studyObject.ts'
import {
  getButtonAuthority,
  getDisplayFieldList,
  getHeaderList,
  getStudyCenters,
  getStudyGroups,
  listSubjects as listEndpoint,
  saveDisplayFieldInfo,
  type DisplayField,
  type DisplayFieldInfo,
  type HeaderColumn,
  type SubjectListQuery,
  type SubjectPage,
} from '../../../contract/subjectList.ts'
import { call, type CallOptions } from '../../api/call.ts'

/** The research-object list's calls (contract/subjectList.ts). */

export function listSubjects(
  query: Partial<SubjectListQuery> & { studyId: number },
  options?: CallOptions<SubjectPage>,
): Promise<SubjectPage> {
  return call(listEndpoint, query as SubjectListQuery, options)
}

export const headerList = (studyId: number, options?: CallOptions<HeaderColumn[]>) => call(getHeaderList, { studyId }, options)
export const displayFields = (studyId: number, options?: CallOptions<DisplayField[]>) => call(getDisplayFieldList, { studyId }, options)
export const saveDisplayFields = (studyId: number, indicatorIds: number[]) =>
  call<{ studyId: number; indicatorIds: number[] }, DisplayFieldInfo>(saveDisplayFieldInfo, { studyId, indicatorIds })
export const studyGroups = (studyId: number, options?: CallOptions<StudyGroup[]>) => call(getStudyGroups, { studyId }, options)
export const studyCenters = (studyId: number, options?: CallOptions<StudyCenter[]>) => call(getStudyCenters, { studyId }, options)
export const buttonAuthority = (studyId: number, options?: CallOptions<ButtonAuthority>) => call(getButtonAuthority, { studyId }, options)
