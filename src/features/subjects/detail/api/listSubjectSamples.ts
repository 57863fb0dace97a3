import { listSamples, type SamplePage } from '../../../../../contract/samples.ts'
import { call, type CallOptions } from '../../../../api/call.ts'

/** GET api/projects/:id/samples?subjectId=: the subject's samples, whose sample forms the detail enters. */
export function listSubjectSamples(input: { studyId: number; subjectId: number }, options?: CallOptions<SamplePage>): Promise<SamplePage> {
  return call(listSamples, { ...input, limit: 1000 }, options)
}
