import { listSubjects as endpoint, type SubjectListQuery, type SubjectPage } from '../../../../../contract/subjectList.ts'
import { call, type CallOptions } from '../../../../api/call.ts'

/** GET api/scientific/studyObject/pageList: here, subjects by number prefix to compare with. */
export function findSubjects(input: SubjectListQuery, options?: CallOptions<SubjectPage>): Promise<SubjectPage> {
  return call(endpoint, input, options)
}
