import { z } from 'zod'
import { envelope } from '../../../../contract/envelope.ts'
import { studyCenter, studyObjectPaths, type StudyCenter } from '../../../../contract/studyObject.ts'
import { request, type RequestOptions } from '../../../api/client.ts'

/** GET api/scientific/studyObject/centerList: the project's centers the caller's role grants (the download filter). */
export async function listCenters(studyId: number, options?: Omit<RequestOptions<StudyCenter[]>, 'schema'>): Promise<StudyCenter[]> {
  const res = await request('GET', studyObjectPaths.centerList, { ...options, query: { studyId }, schema: envelope(z.array(studyCenter)) })
  return res.data ?? []
}
