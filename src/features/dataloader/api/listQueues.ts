import { z } from 'zod'
import { envelope } from '../../../../contract/envelope.ts'
import { studyGroup, studyObjectPaths, type StudyGroup } from '../../../../contract/studyObject.ts'
import { request, type RequestOptions } from '../../../api/client.ts'

/** GET api/scientific/studyObject/getStudyGroupList: the project's queues the caller's role grants (the download filter). */
export async function listQueues(studyId: number, options?: Omit<RequestOptions<StudyGroup[]>, 'schema'>): Promise<StudyGroup[]> {
  const res = await request('GET', studyObjectPaths.groupList, { ...options, query: { studyId }, schema: envelope(z.array(studyGroup)) })
  return res.data ?? []
}
