import type { Candidate } from '../../../../contract/projects.ts'
import { listCandidates as endpoint } from '../../../../contract/projectEndpoints.ts'
import { call, type CallOptions } from '../../../api/call.ts'

/** GET api/projects/:id/candidates: active users not yet members, by name or username prefix. */
export function listCandidates(id: number, q: string, options?: CallOptions<Candidate[]>): Promise<Candidate[]> {
  return call(endpoint, { id, ...(q.trim() === '' ? {} : { q: q.trim() }) }, options)
}
